/** Hex helpers for assertions and Map keys. */
export function hex(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += bytes[i]!.toString(16).padStart(2, "0");
  return s;
}

export function fromHex(text: string): Uint8Array {
  const h = text.startsWith("0x") ? text.slice(2) : text;
  const out = new Uint8Array(h.length >>> 1);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Deterministic pseudo-random bytes (xorshift32), so failures reproduce from the seed. */
export function prng(seed: number): (n: number) => Uint8Array {
  let x = seed >>> 0 || 0x9e3779b9;
  return (n: number) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      out[i] = x & 0xff;
    }
    return out;
  };
}
