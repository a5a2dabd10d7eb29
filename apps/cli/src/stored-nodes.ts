import type { KVStore } from "@bintrie/core";
import { CliError } from "./cli-error.js";
import { nodeKeyRange, pathKeyOf } from "./node-keys.js";

/**
 * Every stored node as (path key, blob), in ascending path-key byte order (the store's key
 * order), without the root record or any other non-node key.
 */
export async function* storedNodes(
  store: KVStore,
): AsyncGenerator<readonly [path: Uint8Array, blob: Uint8Array]> {
  if (store.entries === undefined) {
    throw new CliError("BAD_STORE", "this store cannot list its keys (no ordered iteration)");
  }
  for await (const [key, blob] of store.entries(nodeKeyRange())) {
    yield [pathKeyOf(key), blob] as const;
  }
}
