// A deliberately naive model of go-ethereum master's blob decoder (trie/bintrie decodeNode,
// deserializeSubtree, attachInGroup), written from the spec (shared/spec/geth-bintrie.md §3.1-3.2)
// and not from src/: bits as arrays, paths as strings, the group's internal nodes as a map. It says
// what geth does with a blob: its error, or "OK" / "EMPTY".

export type GethVerdict =
  | "OK"
  | "EMPTY"
  | "INVALID_NODE_TYPE"
  | "INVALID_LENGTH"
  | "INVALID_GROUP_DEPTH"
  | "NON_CANONICAL_BITMAP_PADDING"
  | "NON_CANONICAL_DEPTH_PADDING"
  | "INVALID_DEPTH_OFFSET"
  | "NON_CANONICAL_BITMAP_POSITION"
  | "OVERLAPPING_ENTRIES"
  | "STEM_BLOB_TRUNCATED";

function bitsOf(bytes: Uint8Array, from: number, byteCount: number): number[] {
  const bits: number[] = [];
  for (let i = 0; i < byteCount * 8; i++) {
    bits.push((bytes[from + (i >> 3)]! >> (7 - (i % 8))) & 1);
  }
  return bits;
}

/** geth's verdict on `blob` (the 65-byte flat format is not geth master's: it is a group there). */
export function gethDecodeVerdict(blob: Uint8Array): GethVerdict {
  if (blob.length === 0) return "EMPTY";
  if (blob[0] === 1) {
    if (blob.length < 64) return "INVALID_LENGTH";
    const count = bitsOf(blob, 32, 32).filter((bit) => bit === 1).length;
    return blob.length < 64 + 32 * count ? "STEM_BLOB_TRUNCATED" : "OK";
  }
  if (blob[0] !== 2) return "INVALID_NODE_TYPE";
  if (blob.length < 2) return "INVALID_LENGTH";
  const g = blob[1]!;
  if (g < 1 || g > 8) return "INVALID_GROUP_DEPTH";
  const bitmapBytes = g <= 3 ? 1 : 2 ** (g - 3);
  if (blob.length < 2 + bitmapBytes) return "INVALID_LENGTH";
  const bitmap = bitsOf(blob, 2, bitmapBytes);
  if (bitmap.slice(2 ** g).includes(1)) return "NON_CANONICAL_BITMAP_PADDING";
  const count = bitmap.filter((bit) => bit === 1).length;
  const depthBytes = Math.ceil((3 * count) / 8);
  if (blob.length !== 2 + bitmapBytes + depthBytes + 32 * count) return "INVALID_LENGTH";
  const depthBits = bitsOf(blob, 2 + bitmapBytes, depthBytes);
  if (depthBits.slice(3 * count).includes(1)) return "NON_CANONICAL_DEPTH_PADDING";
  if (count === 0) return "EMPTY";
  // The group's nodes by path below its root: "I" an internal node, "H" an entry (hashed node).
  const nodes = new Map<string, "I" | "H">([["", "I"]]);
  let entry = 0;
  for (let position = 0; position < 2 ** g; position++) {
    if (bitmap[position] === 0) continue;
    const field = depthBits.slice(3 * entry, 3 * entry + 3).join("");
    const depthOffset = Number.parseInt(field, 2) + 1;
    if (depthOffset > g) return "INVALID_DEPTH_OFFSET";
    const path = position.toString(2).padStart(g, "0");
    if (path.slice(depthOffset).includes("1")) return "NON_CANONICAL_BITMAP_POSITION";
    for (let level = 1; level < depthOffset; level++) {
      const above = nodes.get(path.slice(0, level));
      if (above === undefined) nodes.set(path.slice(0, level), "I");
      else if (above !== "I") return "OVERLAPPING_ENTRIES";
    }
    const own = path.slice(0, depthOffset);
    if (nodes.has(own)) return "OVERLAPPING_ENTRIES";
    nodes.set(own, "H");
    entry++;
  }
  return "OK";
}
