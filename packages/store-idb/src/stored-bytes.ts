/**
 * IndexedDB stores values by structured clone, which copies a Uint8Array's whole underlying
 * ArrayBuffer, not just the viewed bytes: a 100-byte blob viewing a 1 MiB commit buffer would
 * store 1 MiB. Store views that own their buffer; copy the rest.
 */
export function ownedBytes(value: Uint8Array): Uint8Array {
  return value.byteOffset === 0 && value.byteLength === value.buffer.byteLength
    ? value
    : value.slice();
}

/** A stored value as bytes: undefined, a Uint8Array, or (written by other code) an ArrayBuffer. */
export function readBytes(stored: unknown): Uint8Array | undefined | null {
  if (stored === undefined) return undefined;
  if (stored instanceof Uint8Array) return stored;
  if (stored instanceof ArrayBuffer) return new Uint8Array(stored);
  return null;
}
