import { bytesToHex } from "../bytes/hex.js";
import type { TreeEntry } from "./binary-tree.js";
import { TreeError } from "./tree-error.js";

// Argument checks of the tree's public methods: the message names the input at fault.

/** Copies of the keys, checked now: the call works on what was passed at call time. */
export function copyKeys(keys: readonly Uint8Array[]): Uint8Array[] {
  const out: Uint8Array[] = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    assertKey(keys[i]!);
    out[i] = keys[i]!.slice();
  }
  return out;
}

export function copyEntries(entries: Iterable<TreeEntry>): TreeEntry[] {
  const out: TreeEntry[] = [];
  for (const { key, value } of entries) {
    assertKey(key);
    assertValue(value, key);
    out.push({ key: key.slice(), value: value.slice() });
  }
  return out;
}

export function assertKey(key: Uint8Array): void {
  if (!(key instanceof Uint8Array) || key.length !== 32) {
    throw new TreeError("INVALID_KEY", `expected a 32-byte key, got ${describeInput(key)}`);
  }
}

export function assertStem(stem: Uint8Array): void {
  if (!(stem instanceof Uint8Array) || stem.length !== 31) {
    throw new TreeError("INVALID_STEM", `expected a 31-byte stem, got ${describeInput(stem)}`);
  }
}

export function assertValue(value: Uint8Array, key: Uint8Array): void {
  if (!(value instanceof Uint8Array) || value.length !== 32) {
    throw new TreeError(
      "INVALID_VALUE",
      `expected a 32-byte value for key ${describeInput(key)}, got ${describeInput(value)}`,
    );
  }
}

export function describeInput(x: unknown): string {
  if (x instanceof Uint8Array) {
    const shown = bytesToHex(x.subarray(0, 40));
    return `${x.length <= 40 ? shown : `${shown}…`} (${x.length} bytes)`;
  }
  return x === null ? "null" : typeof x;
}
