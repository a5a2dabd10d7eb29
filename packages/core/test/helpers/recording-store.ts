import { type BatchOperation, type KVStore, MemoryStore } from "../../src/index.js";

/** A MemoryStore that keeps every batch it was given and can fail on the n-th (`failAt`). */
export class RecordingStore implements KVStore {
  readonly inner = new MemoryStore();
  readonly batches: BatchOperation[][] = [];
  failAt = -1;
  get(key: Uint8Array) {
    return this.inner.get(key);
  }
  getMany(keys: readonly Uint8Array[]) {
    return this.inner.getMany(keys);
  }
  async batch(ops: readonly BatchOperation[]) {
    if (this.batches.length === this.failAt) throw new Error("simulated crash");
    this.batches.push([...ops]);
    await this.inner.batch(ops);
  }
  close() {
    return this.inner.close();
  }
}
