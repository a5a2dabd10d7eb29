/** Deterministic pseudo-random entries (xorshift32), so a test sees the same input every run. */
export function randomEntries(count: number, seed: number): { key: string; value: string }[] {
  let x = seed >>> 0 || 1;
  const byte = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) & 0xff;
  };
  const hex = (n: number) =>
    `0x${Array.from({ length: n }, () => byte().toString(16).padStart(2, "0")).join("")}`;
  const out: { key: string; value: string }[] = [];
  for (let i = 0; i < count; i++) {
    // About a quarter of the keys share a stem with the previous one, as account leaves do.
    const key =
      i > 0 && byte() < 64 ? `${out[i - 1]!.key.slice(0, 64)}${hex(1).slice(2)}` : hex(32);
    out.push({ key, value: hex(32) });
  }
  return out;
}

export function bytesOf(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), "hex"));
}

export function hexOf(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes).toString("hex")}`;
}
