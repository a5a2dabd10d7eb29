import type { KVStore } from "@bintrie/core";
import { invalidArgument } from "./arguments.js";

/** INVALID_ARGUMENT naming `what` unless `store` looks like a KVStore (get, getMany, batch). */
export function checkStore(what: string, store: unknown): asserts store is KVStore {
  const s = store as Partial<KVStore> | null;
  if (
    typeof s !== "object" ||
    s === null ||
    typeof s.get !== "function" ||
    typeof s.getMany !== "function" ||
    typeof s.batch !== "function"
  ) {
    throw invalidArgument(what, "a KVStore (get, getMany, batch)", store);
  }
}
