import type { KVStore } from "@bintrie/core";
import { isStore } from "@bintrie/core/store";
import { invalidArgument } from "./arguments.js";

/** INVALID_ARGUMENT naming `what` unless `store` looks like a KVStore (get, getMany, batch). */
export function checkStore(what: string, store: unknown): asserts store is KVStore {
  if (!isStore(store)) throw invalidArgument(what, "a KVStore (get, getMany, batch)", store);
}
