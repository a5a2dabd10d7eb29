import type { TreeEntry } from "@bintrie/core";
import { hex } from "./bytes.js";

/**
 * The reload test's tree, built identically in the page and in Node: a first commit of
 * FIRST_KEYS keys, then a second commit that updates some of them and adds more.
 */
export const FIRST_KEYS = 2_000;
export const SECOND_NEW_KEYS = 300;
export const SECOND_UPDATES = 500;

function key(i: number): Uint8Array {
  const out = new Uint8Array(32);
  let x = (i + 1) * 0x9e3779b1;
  for (let b = 0; b < 32; b++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[b] = x & 0xff;
  }
  return out;
}

function value(i: number, version: number): Uint8Array {
  const out = new Uint8Array(32);
  out[0] = version;
  out[28] = i >>> 24;
  out[29] = i >>> 16;
  out[30] = i >>> 8;
  out[31] = i;
  return out;
}

/** Entries of the first commit. */
export function firstCommit(): TreeEntry[] {
  return Array.from({ length: FIRST_KEYS }, (_, i) => ({ key: key(i), value: value(i, 1) }));
}

/** Entries of the second commit: updates of every fourth early key, then new keys. */
export function secondCommit(): TreeEntry[] {
  const out: TreeEntry[] = [];
  for (let u = 0; u < SECOND_UPDATES; u++) out.push({ key: key(u * 4), value: value(u * 4, 2) });
  for (let i = FIRST_KEYS; i < FIRST_KEYS + SECOND_NEW_KEYS; i++) {
    out.push({ key: key(i), value: value(i, 2) });
  }
  return out;
}

/** Every key and its value after both commits (a later write of a key replaces the earlier). */
export function finalContents(): TreeEntry[] {
  const byKey = new Map<string, TreeEntry>();
  for (const entry of [...firstCommit(), ...secondCommit()]) byKey.set(hex(entry.key), entry);
  return [...byKey.values()];
}
