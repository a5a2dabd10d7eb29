import { nodeDbKey } from "@bintrie/codec";
import { bytesToHex } from "../bytes/hex.js";
import { bytesToKeyString } from "../store/bytes-order.js";
import type { BatchOperation, KVStore } from "../store/kv-store.js";
import { TreeError } from "../tree/tree-error.js";
import type { Witness } from "./witness.js";

/**
 * The store behind a tree opened from a witness: it serves the witness blobs and nothing else.
 * Reading any other node is TreeError('NOT_IN_WITNESS'); it cannot be written to.
 */
export class WitnessStore implements KVStore {
  readonly #blobs = new Map<string, Uint8Array>();

  constructor(witness: Witness, keyPrefix: Uint8Array) {
    for (const node of witness.nodes) {
      this.#blobs.set(bytesToKeyString(nodeDbKey(node.path, keyPrefix)), node.blob);
    }
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.#read(key);
  }

  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return keys.map((key) => this.#read(key));
  }

  async batch(_operations: readonly BatchOperation[]): Promise<void> {
    throw new TreeError(
      "NOT_IN_WITNESS",
      "a tree opened from a witness holds only the witness nodes and cannot be persisted",
    );
  }

  async close(): Promise<void> {}

  #read(key: Uint8Array): Uint8Array {
    const blob = this.#blobs.get(bytesToKeyString(key));
    if (blob === undefined) {
      throw new TreeError(
        "NOT_IN_WITNESS",
        `the node at store key ${bytesToHex(key)} is not in the witness (a read or write outside what was recorded)`,
      );
    }
    return blob;
  }
}
