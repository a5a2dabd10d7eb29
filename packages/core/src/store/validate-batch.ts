import type { BatchOperation } from "./kv-store.js";
import { StoreError } from "./store-error.js";

/**
 * Checks a whole batch before any of it reaches the backend, so a bad operation rejects the
 * batch instead of leaving part of it applied (LevelDB would store a string value as text).
 *
 * @example
 * ```ts
 * import { validateBatchOperations } from "@bintrie/core/store";
 *
 * // A store's batch(): reject the whole batch before writing any of it.
 * validateBatchOperations([{ type: "put", key: Uint8Array.of(1), value: Uint8Array.of(2) }]); // ok
 * ```
 */
export function validateBatchOperations(operations: readonly BatchOperation[]): void {
  if (!Array.isArray(operations)) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `batch: operations must be an array, got ${typeof operations}`,
    );
  }
  for (let i = 0; i < operations.length; i++) {
    const op = operations[i]!;
    if (op.type !== "put" && op.type !== "del") {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `batch: operation ${i} has type ${JSON.stringify(op.type)}, expected "put" or "del"`,
      );
    }
    if (!(op.key instanceof Uint8Array)) {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `batch: operation ${i} key must be a Uint8Array, got ${typeof op.key}`,
      );
    }
    if (op.type === "put" && !(op.value instanceof Uint8Array)) {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `batch: operation ${i} (put) value must be a Uint8Array, got ${typeof op.value}`,
      );
    }
  }
}
