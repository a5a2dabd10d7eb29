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
    throw new StoreError("INVALID_ARGUMENT", `${what} must be a Uint8Array, got ${typeof key}`);
  }
}
