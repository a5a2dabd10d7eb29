import { describeValue, MAX_GROUP_DEPTH, NODE_KEY_PREFIX, unknownOptionKey } from "@bintrie/codec";
import { KEY_SCHEMES, type KeyScheme } from "../embedding/key-scheme.js";
import { isHasher } from "../hash/hasher.js";
import { isStore } from "../store/kv-store.js";
import { ROOT_RECORD_KEY } from "../store/root-record.js";
import { recordKeyClash } from "./record-key-clash.js";
import { TreeError } from "./tree-error.js";

/** Every option `new BinaryTree(options)` knows (anything else is a typo, refused). */
export const BINARY_TREE_OPTION_KEYS: readonly string[] = [
  "scheme",
  "hasher",
  "groupDepth",
  "store",
  "keyPrefix",
  "rootRecordKey",
  "deletionMode",
  "maxNodes",
  "maxBytes",
];

/**
 * Refuses an options object with unknown keys or ill-typed values with
 * TreeError('INVALID_OPTION') naming the option; `undefined` means "use the default".
 */
export function validateTreeOptions(
  options: unknown,
  where: string,
  known: readonly string[] = BINARY_TREE_OPTION_KEYS,
): void {
  if (options === undefined) return;
  if (options === null || typeof options !== "object") {
    fail(`${where}: options must be an object, got ${describeValue(options)}`);
  }
  const o = options as Record<string, unknown>;
  const unknown = unknownOptionKey(o, known);
  if (unknown !== undefined) {
    fail(`${where}: unknown option '${unknown}' in options (known: ${known.join(", ")})`);
  }
  const present = (key: string) => o[key] !== undefined;
  if (present("scheme") && !KEY_SCHEMES.includes(o.scheme as KeyScheme)) {
    fail(
      `${where}: scheme must be one of ${KEY_SCHEMES.join(", ")}, got ${describeValue(o.scheme)}`,
    );
  }
  if (present("hasher") && !isHasher(o.hasher)) {
    fail(
      `${where}: hasher must be a Hasher (name 'sha256' or 'blake3', digest, hash32Batch, hash64Batch), got ${describeValue(o.hasher)}`,
    );
  }
  if (present("groupDepth")) assertGroupDepth(o.groupDepth, `${where}: groupDepth`);
  if (present("store") && !isStore(o.store)) {
    fail(`${where}: store must be a KVStore (get, getMany, batch), got ${describeValue(o.store)}`);
  }
  for (const key of ["keyPrefix", "rootRecordKey"]) {
    if (present(key) && !(o[key] instanceof Uint8Array)) {
      fail(`${where}: ${key} must be a Uint8Array, got ${describeValue(o[key])}`);
    }
  }
  if (present("keyPrefix") || present("rootRecordKey")) {
    const clash = recordKeyClash(
      (o.keyPrefix as Uint8Array | undefined) ?? NODE_KEY_PREFIX,
      (o.rootRecordKey as Uint8Array | undefined) ?? ROOT_RECORD_KEY,
    );
    if (clash !== undefined) fail(`${where}: ${clash}`);
  }
  if (present("deletionMode") && o.deletionMode !== "zero" && o.deletionMode !== "remove") {
    fail(`${where}: deletionMode must be 'zero' or 'remove', got ${describeValue(o.deletionMode)}`);
  }
  for (const key of ["maxNodes", "maxBytes"]) {
    if (present(key)) assertLimit(o[key], `${where}: ${key}`);
  }
}

/** A group depth: an integer 0..8. */
export function assertGroupDepth(value: unknown, what: string): asserts value is number {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > MAX_GROUP_DEPTH) {
    fail(`${what} must be an integer 0..${MAX_GROUP_DEPTH}, got ${describeValue(value)}`);
  }
}

/** A memory limit: a positive integer, or Infinity for none. */
export function assertLimit(value: unknown, what: string): asserts value is number {
  const ok =
    value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && (value as number) >= 1);
  if (!ok) fail(`${what} must be a positive integer (or Infinity), got ${describeValue(value)}`);
}

function fail(message: string): never {
  throw new TreeError("INVALID_OPTION", message);
}
