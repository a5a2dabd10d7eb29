import type { KVStore, RootRecord } from "@bintrie/core";
import { CliError } from "./cli-error.js";

/** The MPT empty root: go-ethereum (and openTree) treat it as an empty binary tree too. */
const MPT_EMPTY_ROOT = "56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421";

/** The store's root record, or undefined for a store nothing was committed to. */
export async function readRootRecord(store: KVStore): Promise<RootRecord | undefined> {
  const { decodeRootRecord, ROOT_RECORD_KEY } = await import("@bintrie/core");
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

/** Whether a root stands for the empty tree (32 zero bytes, or the MPT empty root). */
export function isEmptyRoot(root: Uint8Array): boolean {
  if (root.every((b) => b === 0)) return true;
  return Buffer.from(root).toString("hex") === MPT_EMPTY_ROOT;
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
