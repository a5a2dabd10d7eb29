import type { KVStore, RootRecord } from "@bintrie/core";
import { CliError } from "./cli-error.js";

/** The store's root record, or undefined for a store nothing was committed to. */
export async function readRootRecord(store: KVStore): Promise<RootRecord | undefined> {
  const { decodeRootRecord, ROOT_RECORD_KEY } = await import("@bintrie/core/store");
  const bytes = await store.get(ROOT_RECORD_KEY);
  if (bytes === undefined) return undefined;
  try {
    return decodeRootRecord(bytes);
  } catch (error) {
    throw new CliError("CORRUPT_STORE", `corrupt store: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Refuses to write a plain tree over a root record that carries an upper layer's state (a
 * conversion in progress or done: the transition keeps its cursor there), which a plain commit
 * would drop.
 */
export function assertPlainTree(record: RootRecord | undefined): void {
  if (record?.extra !== undefined && record.extra.length > 0) {
    throw new CliError(
      "BAD_STORE",
      "the store holds an MPT → binary conversion (its root record carries the conversion state); continue it with 'bintrie convert', or use another --db",
    );
  }
}
