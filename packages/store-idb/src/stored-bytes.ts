/** A stored value as bytes: undefined, a Uint8Array, or (written by other code) an ArrayBuffer. */
export function readBytes(stored: unknown): Uint8Array | undefined | null {
  if (stored === undefined) return undefined;
  if (stored instanceof Uint8Array) return stored;
  if (stored instanceof ArrayBuffer) return new Uint8Array(stored);
  return null;
}
