import { assertBytes } from "./argument-checks.js";
import { NODE_KEY_PREFIX } from "./constants.js";

/**
 * Database key of the node stored at `pathKey`: `prefix || pathKey` (geth/pathdb: "vA" + path).
 *
 * @example
 * ```ts
 * import { encodePathKey, nodeDbKey } from "@bintrie/codec";
 *
 * nodeDbKey(encodePathKey(Uint8Array.of(0xa0), 3)); // Uint8Array [0x76, 0x41, 0xa0, 3]: "vA" ‖ path key
 * ```
 */
export function nodeDbKey(pathKey: Uint8Array, prefix: Uint8Array = NODE_KEY_PREFIX): Uint8Array {
  assertBytes("nodeDbKey: pathKey", pathKey);
  assertBytes("nodeDbKey: prefix", prefix);
  const key = new Uint8Array(prefix.length + pathKey.length);
  key.set(prefix, 0);
  key.set(pathKey, prefix.length);
  return key;
}
