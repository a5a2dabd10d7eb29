import type { Block } from "@ethereumjs/block";
import type { Blockchain } from "@ethereumjs/blockchain";
import { bytesToHex } from "@ethereumjs/util";

/**
 * The blocks a run has put into `blockchain`, kept as they are: the library looks up each
 * block's parent by hash as it validates the next (once in runBlock, once in putBlock), and
 * reads it from its database anew each time — the header twice and every transaction,
 * whose constructors copy the chain's parameters; a run of geth's UBT chains spent about a
 * tenth of its time there. A lookup by hash of a block put here is answered from memory (a
 * block is immutable and its hash names it); any other lookup (by number, of a block not put
 * here) goes to the library as before.
 */
export class KnownBlocks {
  readonly #blocks = new Map<string, Block>();

  constructor(blockchain: Blockchain) {
    const fromDatabase = blockchain.getBlock.bind(blockchain);
    blockchain.getBlock = async (id: Uint8Array | number | bigint): Promise<Block> =>
      (id instanceof Uint8Array ? this.#blocks.get(bytesToHex(id)) : undefined) ?? fromDatabase(id);
  }

  /** A block now in the chain (put, or its genesis). */
  add(block: Block): void {
    this.#blocks.set(bytesToHex(block.hash()), block);
  }
}
