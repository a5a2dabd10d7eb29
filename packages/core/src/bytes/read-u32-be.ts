/** bytes[at..at+4) as a big-endian unsigned 32-bit number (a key's first-4-byte sort digit). */
export function readU32BE(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0
  );
}
