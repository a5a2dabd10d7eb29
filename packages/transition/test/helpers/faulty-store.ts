import { type BatchOperation, type KeyRange, type KVStore, MemoryStore } from "@bintrie/core";

/**
 * A MemoryStore that can fail one read: once armed, the `failAt`-th read call (get, getMany or
 * an entries() iteration) throws. Counts every read while armed, so a test can sweep a fault
 * over each read an operation makes. `ordered: false` hides entries().
 */
export class FaultyStore implements KVStore {
  readonly inner = new MemoryStore();
  failAt = 0;
  reads = 0;
  failed = false;
  /** Called on every read (before the fault check), e.g. to sample state mid-operation. */
  onRead: (() => void) | undefined;
  readonly entries: KVStore["entries"];

  constructor(options: { ordered?: boolean } = {}) {
    this.entries =
      options.ordered === false
        ? undefined
        : (range?: KeyRange) => {
            this.#tick();
            return this.inner.entries(range);
          };
  }

  /** Fails the `n`-th read from now on (0: none). */
  arm(n: number): void {
    this.failAt = n;
    this.reads = 0;
    this.failed = false;
  }

  #tick(): void {
    this.onRead?.();
    if (this.failAt === 0) return;
    this.reads++;
    if (this.reads === this.failAt) {
      this.failed = true;
      throw new Error(`injected read fault #${this.reads}`);
    }
  }

  async get(key: Uint8Array) {
    this.#tick();
    return this.inner.get(key);
  }

  async getMany(keys: readonly Uint8Array[]) {
    this.#tick();
    return this.inner.getMany(keys);
  }

  batch(operations: readonly BatchOperation[]) {
    return this.inner.batch(operations);
  }

  close() {
    return this.inner.close();
  }
}
