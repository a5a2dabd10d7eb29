import { describeValue } from "@bintrie/codec";
import { StoreError } from "@bintrie/core";
import { copyBytes } from "@bintrie/core/bytes";

/** Key-prefix arithmetic: how several trees share one LevelDB without seeing each other's keys. */

const EMPTY = new Uint8Array(0);

/** A prefix given as bytes or as text (UTF-8), as bytes the store owns. */
export function normalizePrefix(prefix: Uint8Array | string | undefined): Uint8Array {
  if (prefix === undefined) return EMPTY;
  if (typeof prefix === "string") return new TextEncoder().encode(prefix);
  if (prefix instanceof Uint8Array) return copyBytes(prefix);
  throw new StoreError(
    "INVALID_ARGUMENT",
    `openLevelStore: options.prefix must be a Uint8Array or a string, got ${describeValue(prefix)}`,
  );
}

/** `prefix ‖ key` (the key itself, uncopied, when there is no prefix). */
export function prefixed(prefix: Uint8Array, key: Uint8Array): Uint8Array {
  if (prefix.length === 0) return key;
  const out = new Uint8Array(prefix.length + key.length);
  out.set(prefix, 0);
  out.set(key, prefix.length);
  return out;
}

/**
 * The smallest key greater than every key that starts with `prefix`, or undefined when there
 * is none (an empty or all-0xff prefix: every key at or above it then starts with it).
 */
export function prefixUpperBound(prefix: Uint8Array): Uint8Array | undefined {
  for (let i = prefix.length - 1; i >= 0; i--) {
    if (prefix[i]! !== 0xff) {
      const out = prefix.slice(0, i + 1);
      out[i]! += 1;
      return out;
    }
  }
  return undefined;
}
