import { describeValue } from "@bintrie/codec";
import { compareBytes } from "../store/bytes-order.js";
import { ProofError } from "./proof-error.js";

/** The distinct keys of a request in byte order, and where each requested key went. */
export interface SortedKeys {
  /** Distinct 32-byte keys, ascending. Keys sharing a stem are adjacent. */
  readonly keys: Uint8Array[];
  /** For each requested key (in request order), its index in `keys`. */
  readonly indexOf: Int32Array;
}

/**
 * Validates and sorts the keys of a proof request. Order and duplicates do not matter to a
 * proof: both sides work on the sorted distinct set.
 */
export function sortKeys(keys: readonly Uint8Array[], operation: string): SortedKeys {
  if (!Array.isArray(keys)) {
    throw new ProofError("INVALID_KEY", `${operation}: keys must be an array of 32-byte keys`);
  }
  if (keys.length === 0) {
    throw new ProofError("NO_KEYS", `${operation}: at least one key is needed`);
  }
  for (let i = 0; i < keys.length; i++) {
    const key: unknown = keys[i];
    if (!(key instanceof Uint8Array) || key.length !== 32) {
      throw new ProofError(
        "INVALID_KEY",
        `${operation}: key ${i} must be a 32-byte Uint8Array, got ${describeValue(key)}`,
      );
    }
  }
  const order = Array.from({ length: keys.length }, (_, i) => i);
  order.sort((a, b) => compareBytes(keys[a]!, keys[b]!));
  const sorted: Uint8Array[] = [];
  const indexOf = new Int32Array(keys.length);
  for (const i of order) {
    const key = keys[i]!;
    const last = sorted[sorted.length - 1];
    if (last === undefined || compareBytes(last, key) !== 0) sorted.push(key);
    indexOf[i] = sorted.length - 1;
  }
  return { keys: sorted, indexOf };
}
