import { assertBytes, assertIntegerInRange } from "./argument-checks.js";
import { MAX_DEPTH } from "./constants.js";
import { CodecError } from "./errors.js";

/**
 * geth's `keyToPath(depth, key)`: the path key of the first depth+1 bits of `key` (a stem or full
 * key), i.e. the path of the child of an internal node at `depth` on the way to `key`. Like geth's
 * BitArray.SetBytes, bytes missing from a short `key` read as zero.
 *
 * @example
 * ```ts
 * import { childPathKey } from "@bintrie/codec";
 *
 * const key = new Uint8Array(32).fill(0xff);
 * childPathKey(key, 0); // Uint8Array [0x80, 1]: the path "1"
 * ```
 */
export function childPathKey(key: Uint8Array, depth: number): Uint8Array {
  assertBytes("childPathKey: key", key);
  if (Number.isInteger(depth) && depth >= MAX_DEPTH) {
    throw new CodecError(
      "PATH_TOO_DEEP",
      `node too deep: no child path below depth ${depth} (the deepest path has ${MAX_DEPTH} bits)`,
    );
  }
  assertIntegerInRange("depth", depth, 0, MAX_DEPTH - 1);
  const length = depth + 1;
  const byteCount = (length + 7) >> 3;
  const out = new Uint8Array(byteCount + 1);
  const available = Math.min(byteCount, key.length);
  for (let i = 0; i < available; i++) {
    out[i] = key[i]!;
  }
  const usedInLastByte = length & 7;
  if (usedInLastByte !== 0) {
    out[byteCount - 1] = out[byteCount - 1]! & (0xff00 >> usedInLastByte);
  }
  out[byteCount] = length;
  return out;
}
