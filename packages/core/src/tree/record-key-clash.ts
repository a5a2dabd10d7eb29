import { decodePathKey } from "@bintrie/codec";
import { bytesToHex } from "../bytes/hex.js";

/**
 * Why `rootRecordKey` cannot go with `keyPrefix`, or undefined when it can: a root record key
 * that is also the store key of a node (`keyPrefix ‖ path key`) would have a persist write the
 * record over that node, or the node over the record.
 */
export function recordKeyClash(
  keyPrefix: Uint8Array,
  rootRecordKey: Uint8Array,
): string | undefined {
  if (rootRecordKey.length < keyPrefix.length) return undefined;
  for (let i = 0; i < keyPrefix.length; i++)
    if (rootRecordKey[i] !== keyPrefix[i]) return undefined;
  try {
    decodePathKey(rootRecordKey.subarray(keyPrefix.length));
  } catch {
    return undefined;
  }
  return `rootRecordKey ${bytesToHex(rootRecordKey)} is the store key of a node under keyPrefix ${bytesToHex(keyPrefix)}; choose a key that does not start with the prefix`;
}
