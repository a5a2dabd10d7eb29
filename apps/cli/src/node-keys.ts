import { NODE_KEY_PREFIX } from "@bintrie/codec";
import { CliError } from "./cli-error.js";

/** The store key range of every node blob: keys starting with "vA" (go-ethereum's layout). */
export function nodeKeyRange(prefix: Uint8Array = NODE_KEY_PREFIX): {
  gte: Uint8Array;
  lt: Uint8Array;
} {
  const lt = prefix.slice();
  // "vA" → "vB": the first key after every key that starts with the prefix.
  for (let i = lt.length - 1; i >= 0; i--) {
    if (lt[i]! < 0xff) {
      lt[i]! += 1;
      return { gte: prefix, lt: lt.subarray(0, i + 1) };
    }
  }
  throw new CliError("BAD_INPUT", "node key prefix cannot be all 0xff bytes");
}

/** The path key part of a node's store key. */
export function pathKeyOf(storeKey: Uint8Array, prefix: Uint8Array = NODE_KEY_PREFIX): Uint8Array {
  return storeKey.subarray(prefix.length);
}
