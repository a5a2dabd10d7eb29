import { MAX_GROUP_DEPTH } from "@bintrie/codec";
import { KEY_SCHEMES, type KeyScheme } from "../embedding/key-scheme.js";
import type { Hasher } from "../hash/hasher.js";
import type { KVStore } from "../store/kv-store.js";
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
    fail(`${where}: options must be an object, got ${describe(options)}`);
  }
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!known.includes(key)) {
      fail(`${where}: unknown option '${key}' (known: ${known.join(", ")})`);
    }
  }
  const present = (key: string) => o[key] !== undefined;
  if (present("scheme") && !KEY_SCHEMES.includes(o.scheme as KeyScheme)) {
    fail(`${where}: scheme must be one of ${KEY_SCHEMES.join(", ")}, got ${describe(o.scheme)}`);
  }
  if (present("hasher") && !isHasher(o.hasher)) {
    fail(`${where}: hasher must be a Hasher (name, hash64Batch), got ${describe(o.hasher)}`);
  }
  if (present("groupDepth")) assertGroupDepth(o.groupDepth, `${where}: groupDepth`);
  if (present("store") && !isStore(o.store)) {
    fail(`${where}: store must be a KVStore (get, getMany, batch), got ${describe(o.store)}`);
  }
  for (const key of ["keyPrefix", "rootRecordKey"]) {
    if (present(key) && !(o[key] instanceof Uint8Array)) {
      fail(`${where}: ${key} must be a Uint8Array, got ${describe(o[key])}`);
    }
  }
  if (present("deletionMode") && o.deletionMode !== "zero" && o.deletionMode !== "remove") {
    fail(`${where}: deletionMode must be 'zero' or 'remove', got ${describe(o.deletionMode)}`);
  }
  for (const key of ["maxNodes", "maxBytes"]) {
    if (present(key)) assertLimit(o[key], `${where}: ${key}`);
  }
}

/** A group depth: an integer 0..8. */
export function assertGroupDepth(value: unknown, what: string): asserts value is number {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > MAX_GROUP_DEPTH) {
    fail(`${what} must be an integer 0..${MAX_GROUP_DEPTH}, got ${describe(value)}`);
  }
}

/** A memory limit: a positive integer, or Infinity for none. */
export function assertLimit(value: unknown, what: string): asserts value is number {
  const ok =
    value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && (value as number) >= 1);
  if (!ok) fail(`${what} must be a positive integer (or Infinity), got ${describe(value)}`);
}

function isHasher(x: unknown): x is Hasher {
  const h = x as Partial<Hasher> | null;
  return typeof h === "object" && h !== null && typeof h.name === "string";
}

function isStore(x: unknown): x is KVStore {
  const s = x as Partial<KVStore> | null;
  return (
    typeof s === "object" &&
    s !== null &&
    typeof s.get === "function" &&
    typeof s.getMany === "function" &&
    typeof s.batch === "function"
  );
}

function describe(x: unknown): string {
  if (x === null) return "null";
  if (typeof x === "string") return JSON.stringify(x);
  if (typeof x === "number" || typeof x === "boolean" || typeof x === "bigint") return String(x);
  if (x instanceof Uint8Array) return `${x.length} bytes`;
  return typeof x;
}

function fail(message: string): never {
  throw new TreeError("INVALID_OPTION", message);
}
