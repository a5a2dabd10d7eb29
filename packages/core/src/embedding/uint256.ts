/** 2^256 - 1, the largest value a 32-byte word holds. */
export const MAX_UINT256: bigint = (1n << 256n) - 1n;

const WORD_SHIFTS = [0n, 64n, 128n, 192n] as const;

/** Whether `value` is a bigint in 0..2^256-1. */
export function isUint256(value: unknown): value is bigint {
  return typeof value === "bigint" && value >= 0n && value <= MAX_UINT256;
}

/**
 * Writes a uint256 as 32 bytes at view[offset..], big-endian or little-endian, as four 64-bit
 * stores (no intermediate arrays). The caller has checked the range.
 */
export function writeUint256(
  view: DataView,
  offset: number,
  value: bigint,
  littleEndian: boolean,
): void {
  for (let word = 0; word < 4; word++) {
    const bits = BigInt.asUintN(64, value >> WORD_SHIFTS[word]!);
    // Word 0 is the least significant: last 8 bytes big-endian, first 8 bytes little-endian.
    const at = littleEndian ? offset + 8 * word : offset + 24 - 8 * word;
    view.setBigUint64(at, bits, littleEndian);
  }
}

/** Reads 32 bytes at bytes[offset..] as a big-endian uint256. */
export function readUint256BigEndian(bytes: Uint8Array, offset: number): bigint {
  let value = 0n;
  for (let word = 0; word < 4; word++) {
    let part = 0n;
    for (let b = 0; b < 8; b++) part = (part << 8n) | BigInt(bytes[offset + 8 * word + b] ?? 0);
    value = (value << 64n) | part;
  }
  return value;
}
