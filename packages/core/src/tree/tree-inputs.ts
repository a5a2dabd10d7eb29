import { describeValue } from "@bintrie/codec";
import { describeBytes } from "../bytes/describe-bytes.js";
import type { BatchOperation } from "../store/kv-store.js";
import type { TreeEntry } from "./binary-tree.js";
import { type NodeSet, type NodeWrite, PackedNodeSet } from "./node-set.js";
import { TreeError } from "./tree-error.js";

// Argument checks of the tree's public methods: the message names the input at fault.

/** Copies of the keys, checked now: the call works on what was passed at call time. */
export function copyKeys(keys: readonly Uint8Array[], operation: string): Uint8Array[] {
  if (!Array.isArray(keys)) {
    throw new TreeError(
      "INVALID_KEY",
      `${operation}: keys must be an array of 32-byte keys, got ${describeValue(keys)}`,
    );
  }
  const out: Uint8Array[] = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    assertKey(keys[i]!);
    out[i] = keys[i]!.slice();
  }
  return out;
}

export function copyEntries(entries: Iterable<TreeEntry>, operation: string): TreeEntry[] {
  if (
    typeof entries !== "object" ||
    entries === null ||
    typeof (entries as Partial<Iterable<TreeEntry>>)[Symbol.iterator] !== "function"
  ) {
    throw new TreeError(
      "INVALID_KEY",
      `${operation}: entries must be an iterable of { key, value }, got ${describeValue(entries)}`,
    );
  }
  const out: TreeEntry[] = [];
  for (const entry of entries) {
    if (typeof entry !== "object" || entry === null) {
      throw new TreeError(
        "INVALID_KEY",
        `${operation}: entry ${out.length} must be { key, value }, got ${describeValue(entry)}`,
      );
    }
    const { key, value } = entry;
    assertKey(key);
    assertValue(value, key);
    out.push({ key: key.slice(), value: value.slice() });
  }
  return out;
}

export function assertKey(key: Uint8Array): void {
  if (!(key instanceof Uint8Array) || key.length !== 32) {
    throw new TreeError("INVALID_KEY", `expected a 32-byte key, got ${describeBytes(key)}`);
  }
}

export function assertStem(stem: Uint8Array): void {
  if (!(stem instanceof Uint8Array) || stem.length !== 31) {
    throw new TreeError("INVALID_STEM", `expected a 31-byte stem, got ${describeBytes(stem)}`);
  }
}

export function assertValue(value: Uint8Array, key: Uint8Array): void {
  if (!(value instanceof Uint8Array) || value.length !== 32) {
    throw new TreeError(
      "INVALID_VALUE",
      `expected a 32-byte value for key ${describeBytes(key)}, got ${describeBytes(value)}`,
    );
  }
}

/** The `extra` bytes of a root record (persist, nodeSetOperations): a Uint8Array or nothing. */
export function assertExtra(extra: unknown, operation: string): void {
  if (extra !== undefined && !(extra instanceof Uint8Array)) {
    throw new TreeError(
      "INVALID_OPTION",
      `${operation}: extra must be a Uint8Array, got ${describeValue(extra)}`,
    );
  }
}

/**
 * A node set from a commit: a packed one as `commit()` returns it, or an object with a 32-byte
 * root, an integer groupDepth, writes of { path, hash, blob } bytes and deleted paths.
 */
export function assertNodeSet(set: unknown, operation: string): asserts set is NodeSet {
  if (set instanceof PackedNodeSet) return;
  const s = set as Partial<NodeSet> | null;
  const fault =
    typeof s !== "object" || s === null
      ? `a node set, got ${describeValue(set)}`
      : !(s.root instanceof Uint8Array) || s.root.length !== 32
        ? `a node set with a 32-byte root, got root ${describeBytes(s.root)}`
        : !Number.isInteger(s.groupDepth)
          ? `a node set with an integer groupDepth, got ${describeValue(s.groupDepth)}`
          : !Array.isArray(s.writes) || !Array.isArray(s.deletes)
            ? "a node set with arrays writes and deletes"
            : (badWrite(s.writes) ?? badDeletes(s.deletes));
  if (fault !== undefined) {
    throw new TreeError("INVALID_OPTION", `${operation}: expected ${fault}`);
  }
}

function badWrite(writes: readonly NodeWrite[]): string | undefined {
  for (let i = 0; i < writes.length; i++) {
    const w = writes[i] as Partial<NodeWrite> | null;
    if (
      typeof w !== "object" ||
      w === null ||
      !(w.path instanceof Uint8Array) ||
      !(w.hash instanceof Uint8Array) ||
      !(w.blob instanceof Uint8Array)
    ) {
      return `write ${i} of the node set to be { path, hash, blob } bytes, got ${describeValue(w)}`;
    }
  }
  return undefined;
}

function badDeletes(deletes: readonly Uint8Array[]): string | undefined {
  for (let i = 0; i < deletes.length; i++) {
    if (!(deletes[i] instanceof Uint8Array)) {
      return `delete ${i} of the node set to be a path key, got ${describeValue(deletes[i])}`;
    }
  }
  return undefined;
}

/** A copy of a checked store operation (its key and value bytes too). */
export function copyOperation(op: BatchOperation): BatchOperation {
  return op.type === "put"
    ? { type: "put", key: op.key.slice(), value: op.value.slice() }
    : { type: "del", key: op.key.slice() };
}
