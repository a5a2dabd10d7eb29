import { describeValue, unknownOptionKey } from "@bintrie/codec";
import type { KeyRange } from "./kv-store.js";
import { StoreError } from "./store-error.js";

/**
 * Throws StoreError('INVALID_ARGUMENT') unless `key` is a Uint8Array (`what` names the input,
 * e.g. "get: key"): the one key check of the stores' read paths.
 *
 * @example
 * ```ts
 * import { assertStoreKey } from "@bintrie/core/store";
 *
 * assertStoreKey(Uint8Array.of(1), "get: key"); // ok; a string would throw INVALID_ARGUMENT
 * ```
 */
export function assertStoreKey(key: unknown, what: string): asserts key is Uint8Array {
  if (!(key instanceof Uint8Array)) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `${what} must be a Uint8Array, got ${describeValue(key)}`,
    );
  }
}

/**
 * Throws StoreError('INVALID_ARGUMENT') unless `keys` is an array of Uint8Arrays (`what` names
 * the call, e.g. "getMany"): the key check of every store's `getMany`.
 *
 * @example
 * ```ts
 * import { assertStoreKeys } from "@bintrie/core/store";
 *
 * assertStoreKeys([Uint8Array.of(1)], "getMany"); // ok; null or [1] would throw INVALID_ARGUMENT
 * ```
 */
export function assertStoreKeys(
  keys: unknown,
  what: string,
): asserts keys is readonly Uint8Array[] {
  if (!Array.isArray(keys)) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `${what}: keys must be an array of Uint8Arrays, got ${describeValue(keys)}`,
    );
  }
  for (let i = 0; i < keys.length; i++) assertStoreKey(keys[i], `${what}: key ${i}`);
}

const RANGE_KEYS: readonly (keyof KeyRange)[] = ["gte", "lt"];

/**
 * Throws StoreError('INVALID_ARGUMENT') unless `range` is a KeyRange: an object with no keys but
 * `gte` and `lt`, each, where given, a Uint8Array (`what` names the call, e.g. "entries").
 *
 * @example
 * ```ts
 * import { assertKeyRange } from "@bintrie/core/store";
 *
 * assertKeyRange({ gte: Uint8Array.of(1) }, "entries"); // ok; { gte: "a" } would throw
 * ```
 */
export function assertKeyRange(range: unknown, what: string): asserts range is KeyRange {
  if (typeof range !== "object" || range === null) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `${what}: range must be { gte?, lt? }, got ${describeValue(range)}`,
    );
  }
  // (A LevelDB-style `gt` or `lte` would otherwise be ignored and the whole store iterated.)
  const unknown = unknownOptionKey(range, RANGE_KEYS);
  if (unknown !== undefined) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `${what}: range has an unknown bound '${unknown}' (known: gte, lt)`,
    );
  }
  const { gte, lt } = range as { gte?: unknown; lt?: unknown };
  if (gte !== undefined) assertStoreKey(gte, `${what}: range.gte`);
  if (lt !== undefined) assertStoreKey(lt, `${what}: range.lt`);
}
