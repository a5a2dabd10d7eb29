import type { TreeEntry } from "../tree/binary-tree.js";

/** Bytes of one entry record in a sort run: key (32) ‖ value (32). */
export const ENTRY_RECORD_SIZE = 64;

/** Byte order of the 32-byte keys of the records at a[i..] and b[j..]. */
export function compareRecordKeys(a: Uint8Array, i: number, b: Uint8Array, j: number): number {
  for (let k = 0; k < 32; k++) {
    const d = a[i + k]! - b[j + k]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** A new entry (own copies of key and value) from the record at bytes[at..at+64). */
export function entryAt(bytes: Uint8Array, at: number): TreeEntry {
  return { key: bytes.slice(at, at + 32), value: bytes.slice(at + 32, at + 64) };
}
