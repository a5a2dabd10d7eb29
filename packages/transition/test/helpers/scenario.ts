import {
  type BatchOperation,
  type DeletionMode,
  type GenesisAlloc,
  type KeyRange,
  type KVStore,
  MemoryStore,
} from "@bintrie/core";
import { buildMptBase } from "../../src/build-mpt-base.js";
import { type PreimageSource, preimagesFromAlloc } from "../../src/preimage-source.js";
import { TransitionState } from "../../src/transition-state.js";
import { fromHex, hex, quantity, word } from "./bytes.js";

export const A = fromHex("aa000000000000000000000000000000000000aa");
export const B = fromHex("bb000000000000000000000000000000000000bb");
export const C = fromHex("cc000000000000000000000000000000000000cc");
/** 70 bytes of code with PUSH data crossing a chunk boundary: 3 chunks. */
export const CODE_A = Uint8Array.from({ length: 70 }, (_, i) => (i === 30 ? 0x62 : i + 1));

/** A base with a contract A (code, header and main storage) and an EOA B with one slot. */
export const BASE_ALLOC: GenesisAlloc = {
  [`0x${hex(A)}`]: {
    nonce: "0x1",
    balance: "0x64",
    code: `0x${hex(CODE_A)}`,
    storage: {
      [`0x${hex(word(0n))}`]: "0x01",
      [`0x${hex(word(64n))}`]: "0x02",
      [`0x${hex(word(300n))}`]: "0x03",
    },
  },
  [`0x${hex(B)}`]: { balance: quantity(5n), storage: { [`0x${hex(word(1n))}`]: "0x09" } },
};

export interface Scenario {
  readonly store: KVStore;
  readonly baseRoot: Uint8Array;
  readonly preimages: PreimageSource;
  readonly t: TransitionState;
}

export async function openScenario(
  options: { mode?: DeletionMode; store?: KVStore; alloc?: GenesisAlloc } = {},
): Promise<Scenario> {
  const store = options.store ?? new MemoryStore();
  const alloc = options.alloc ?? BASE_ALLOC;
  const { root } = await buildMptBase(store, alloc);
  const preimages = preimagesFromAlloc(alloc);
  const t = await TransitionState.open(store, {
    baseRoot: root,
    preimages,
    deletionMode: options.mode,
  });
  return { store, baseRoot: root, preimages, t };
}

/** A store that records every key read, to prove which reads reach the base. */
export class CountingStore implements KVStore {
  readonly inner: KVStore;
  readonly reads: Uint8Array[] = [];

  constructor(inner: KVStore = new MemoryStore()) {
    this.inner = inner;
  }

  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    this.reads.push(key);
    return this.inner.get(key);
  }

  getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    this.reads.push(...keys);
    return this.inner.getMany(keys);
  }

  batch(operations: readonly BatchOperation[]): Promise<void> {
    return this.inner.batch(operations);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  entries(range?: KeyRange): AsyncIterable<readonly [Uint8Array, Uint8Array]> {
    return this.inner.entries!(range);
  }

  /** Reads of keys starting with `prefix` (one ASCII character). */
  readsWithPrefix(prefix: string): number {
    const p = prefix.charCodeAt(0);
    return this.reads.filter((k) => k[0] === p).length;
  }
}

/** A KVStore without ordered iteration (entries is optional in the contract). */
export class UnorderedStore implements KVStore {
  readonly #inner = new MemoryStore();
  get(key: Uint8Array) {
    return this.#inner.get(key);
  }
  getMany(keys: readonly Uint8Array[]) {
    return this.#inner.getMany(keys);
  }
  batch(operations: readonly BatchOperation[]) {
    return this.#inner.batch(operations);
  }
  close() {
    return this.#inner.close();
  }
}
