/**
 * 32-bit FNV-1a of bytes[start, end): a cheap hash for hash tables and filters over byte keys
 * (not collision resistant; callers compare the bytes when hashes match).
 */
export function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}
