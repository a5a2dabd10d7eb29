import { decodeAccount, type MptBase } from "./mpt-base.js";
import type { MptLeaf } from "./mpt-walk.js";

/**
 * Base accounts for conversion, in batches: each batch's code and storage-trie tops are read
 * ahead in one batched read per level, instead of several round trips per account. (Fetching
 * the next batch while one is converted was measured: no gain, as reads compete for the same
 * store threads.)
 */
export class AccountFeed {
  readonly #walk: AsyncGenerator<MptLeaf>;
  readonly #base: MptBase;
  readonly #batchSize: number;
  /** The current batch, last element = next account. */
  #ready: MptLeaf[] = [];

  constructor(walk: AsyncGenerator<MptLeaf>, base: MptBase, batchSize: number) {
    this.#walk = walk;
    this.#base = base;
    this.#batchSize = batchSize;
  }

  /** The next account leaf, or undefined after the last. */
  async take(): Promise<MptLeaf | undefined> {
    if (this.#ready.length === 0) {
      const batch: MptLeaf[] = [];
      while (batch.length < this.#batchSize) {
        const next = await this.#walk.next();
        if (next.done === true) break;
        batch.push(next.value);
      }
      if (batch.length === 0) return undefined;
      const accounts = batch.map((leaf) => decodeAccount(leaf.value));
      await this.#base.prefetch(
        accounts.map((a) => a.storageRoot),
        accounts.map((a) => a.codeHash),
      );
      this.#ready = batch.reverse();
    }
    return this.#ready.pop();
  }
}
