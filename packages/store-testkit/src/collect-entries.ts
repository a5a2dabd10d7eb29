import { hex } from "./bytes.js";

/** Drains a store's `entries()` into [hex key, hex value] pairs, in the order it yields them. */
export async function collectEntries(
  iterable: AsyncIterable<readonly [Uint8Array, Uint8Array]>,
): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for await (const [key, value] of iterable) out.push([hex(key), hex(value)]);
  return out;
}
