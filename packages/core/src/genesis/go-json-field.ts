/**
 * A field of a JSON object as go-ethereum's decoders (Go's encoding/json) find it: the key
 * matches the field's name in any letter case (`balance`, `Balance`, `mixhash`), and where
 * several keys match, the last one in the object wins. undefined when none matches.
 *
 * @example
 * ```ts
 * import { goJsonField } from "@bintrie/core";
 *
 * goJsonField({ mixhash: "0x01", Balance: "0x2" }, "mixHash"); // "0x01"
 * ```
 */
export function goJsonField(object: Readonly<Record<string, unknown>>, name: string): unknown {
  const wanted = name.toLowerCase();
  let found: unknown;
  for (const [key, value] of Object.entries(object)) {
    if (key.toLowerCase() === wanted) found = value;
  }
  return found;
}
