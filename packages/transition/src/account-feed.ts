import { decodeAccount, type MptBase } from "./mpt-base.js";
import type { MptLeaf } from "./mpt-walk.js";

/**
 * Base accounts for conversion, in batches: each batch's code and storage-trie tops are read
 * ahead in one batched read per level, and the next batch is fetched while the current one is
 * converted, so store latency overlaps hashing instead of adding to it.
 */
export class AccountFeed {
  readonly #walk: AsyncGenerator<MptLeaf>;
  readonly #base: MptBase;
  readonly #batchSize: number;
  /** The current batch, last element = next account. */
  #ready: MptLeaf[] = [];
  #next: Promise<MptLeaf[]> | undefined;
  #ended = false;

  constructor(walk: AsyncGenerator<MptLeaf>, base: MptBase, batchSize: number) {
    this.#walk = walk;
    this.#base = base;
    this.#batchSize = batchSize;
  }

  /** The next account leaf, or undefined after the last. */
  async take(): Promise<MptLeaf | undefined> {
    if (this.#ready.length === 0) {
      const batch = await (this.#next ?? this.#fetch());
      this.#next = undefined;
      if (batch.length === 0) return undefined;
      this.#ready = batch.reverse();
      if (!this.#ended) {
        this.#next = this.#fetch();
        // Surfaced when awaited by the next take(); never an unhandled rejection meanwhile.
        this.#next.catch(() => undefined);
      }
    }
    return this.#ready.pop();
  }

  async #fetch(): Promise<MptLeaf[]> {
    const batch: MptLeaf[] = [];
    while (batch.length < this.#batchSize) {
      const next = await this.#walk.next();
      if (next.done === true) {
        this.#ended = true;
        break;
      }
      batch.push(next.value);
    }
    if (batch.length > 0) {
      const accounts = batch.map((leaf) => decodeAccount(leaf.value));
      await this.#base.prefetch(
        accounts.map((a) => a.storageRoot),
        accounts.map((a) => a.codeHash),
      );
    }
    return batch;
  }
}
