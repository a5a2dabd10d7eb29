// Deliberately naive bit-string models of the formats, written from the spec independently of
// src/, so property tests compare the codec against something other than itself.

function bitString(bytes: Uint8Array, bitCount: number): string {
  let bits = "";
  for (let i = 0; i < bitCount; i++) {
    const byte = bytes[i >> 3] ?? 0;
    bits += (byte >> (7 - (i % 8))) & 1 ? "1" : "0";
  }
  return bits;
}

function packBits(bits: string): number[] {
  const padded = bits.padEnd(Math.ceil(bits.length / 8) * 8, "0");
  const bytes: number[] = [];
  for (let i = 0; i < padded.length; i += 8) {
    bytes.push(Number.parseInt(padded.slice(i, i + 8), 2));
  }
  return bytes;
}

/** Path key: packed first `length` bits, then the length byte; the root is empty. */
export function modelPathKey(bits: Uint8Array, length: number): Uint8Array {
  if (length === 0) {
    return new Uint8Array(0);
  }
  return Uint8Array.from([...packBits(bitString(bits, length)), length]);
}

/** Stem blob: 01 | stem | bitmap | values in increasing subindex order. */
export function modelStemBlob(stem: Uint8Array, values: Map<number, Uint8Array>): Uint8Array {
  let bitmap = "";
  for (let subindex = 0; subindex < 256; subindex++) {
    bitmap += values.has(subindex) ? "1" : "0";
  }
  const ordered = [...values.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([, value]) => [...value]);
  return Uint8Array.from([1, ...stem, ...packBits(bitmap), ...ordered]);
}

/** Group blob: 02 | g | bitmap | 3-bit (offset - 1) fields | hashes, entries sorted by position. */
export function modelGroupBlob(
  groupDepth: number,
  entries: { position: number; depthOffset: number; hash: Uint8Array }[],
): Uint8Array {
  const sorted = [...entries].sort((a, b) => a.position - b.position);
  const bitmapBits = Math.max(8, 2 ** groupDepth);
  let bitmap = "";
  for (let bit = 0; bit < bitmapBits; bit++) {
    bitmap += sorted.some((entry) => entry.position === bit) ? "1" : "0";
  }
  const depths = sorted
    .map((entry) => (entry.depthOffset - 1).toString(2).padStart(3, "0"))
    .join("");
  return Uint8Array.from([
    2,
    groupDepth,
    ...packBits(bitmap),
    ...packBits(depths),
    ...sorted.flatMap((entry) => [...entry.hash]),
  ]);
}
