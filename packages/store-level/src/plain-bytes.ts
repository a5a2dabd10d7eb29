/**
 * classic-level hands back Node Buffers. The KVStore contract speaks plain Uint8Array (a
 * Buffer's `slice()` is a view, not a copy, which would surprise callers), so re-view the same
 * memory as a Uint8Array without copying.
 */
export function plainBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.constructor === Uint8Array) return bytes;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
