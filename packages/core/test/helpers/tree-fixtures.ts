import { NODE_KEY_PREFIX } from "@bintrie/codec";
import { BinaryTree, type KVStore, type MemoryStore } from "../../src/index.js";
import { hex } from "./shared.js";

/** Deterministic pseudo-random bytes (xorshift32), so failures reproduce from the seed. */
export function prng(seed: number): (n: number) => Uint8Array {
  let x = seed >>> 0 || 0x9e3779b9;
  return (n: number) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      out[i] = x & 0xff;
    }
    return out;
  };
}

/**
 * Keys whose stems share long prefixes with earlier ones and diverge at chosen bit positions,
 * so stems end at every depth inside a group, not only on its bottom layer.
 */
export function adversarialKeys(seed: number, count: number, maxDivergeBit = 24): Uint8Array[] {
  const rand = prng(seed);
  const keys: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const r = rand(4);
    const key = rand(32);
    if (keys.length > 0 && r[0]! % 4 !== 0) {
      const base = keys[r[1]! % keys.length]!;
      const bit = r[2]! % maxDivergeBit;
      key.set(base.subarray(0, 31));
      // Keep the first `bit` bits, flip bit `bit`, randomize the rest of the stem.
      const byte = bit >>> 3;
      const mask = 0x80 >>> (bit & 7);
      const tail = rand(31);
      for (let j = byte + 1; j < 31; j++) key[j] = tail[j]!;
      const keepMask = (0xff00 >>> (bit & 7)) & 0xff;
      key[byte] = (base[byte]! & keepMask) | (~base[byte]! & mask) | (tail[byte]! & (mask - 1));
    }
    keys.push(key);
  }
  return keys;
}

/** Every node entry in the store (prefix "vA"), as hex path key → hex blob. */
export async function storedNodes(store: MemoryStore): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const [key, value] of store.entries()) {
    if (key[0] === NODE_KEY_PREFIX[0] && key[1] === NODE_KEY_PREFIX[1]) {
      out.set(hex(key.subarray(2)), hex(value));
    }
  }
  return out;
}

/** The node set of a fresh tree holding exactly these entries, as hex path → hex blob. */
export function freshNodes(
  entries: Map<string, Uint8Array>,
  keyOf: (k: string) => Uint8Array,
  groupDepth: number,
): Map<string, string> {
  const tree = new BinaryTree({ groupDepth });
  for (const [k, v] of entries) tree.put(keyOf(k), v);
  const set = tree.commit();
  return new Map(set.writes.map((w) => [hex(w.path), hex(w.blob)]));
}

/** A KVStore wrapper that counts read rounds. */
export class CountingStore implements KVStore {
  reads = 0;
  readonly inner: KVStore;
  constructor(inner: KVStore) {
    this.inner = inner;
  }
  get(key: Uint8Array) {
    this.reads++;
    return this.inner.get(key);
  }
  getMany(keys: readonly Uint8Array[]) {
    this.reads++;
    return this.inner.getMany(keys);
  }
  batch(ops: Parameters<KVStore["batch"]>[0]) {
    return this.inner.batch(ops);
  }
  close() {
    return this.inner.close();
  }
}
