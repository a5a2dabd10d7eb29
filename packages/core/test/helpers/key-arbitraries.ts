import fc from "fast-check";

/**
 * 32-byte keys, zero except at the given byte positions, each drawn from its arbitrary: a small
 * key space with shared prefixes (deep splits), shared stems and repeated keys.
 */
export function keyArbAt(bytes: Record<number, fc.Arbitrary<number>>): fc.Arbitrary<Uint8Array> {
  return fc.record(bytes).map((drawn: Record<number, number>) => {
    const key = new Uint8Array(32);
    for (const [position, byte] of Object.entries(drawn)) key[Number(position)] = byte;
    return key;
  });
}

/** A 32-byte value filled with one byte in min..255. */
export function filledValueArb(min: number): fc.Arbitrary<Uint8Array> {
  return fc.integer({ min, max: 255 }).map((b) => new Uint8Array(32).fill(b));
}
