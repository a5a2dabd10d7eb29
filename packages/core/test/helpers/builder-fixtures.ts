import { type StemEntry, StreamingBuilder } from "../../src/builder/index.js";
import { BinaryTree, type NodeSet, type NodeWrite } from "../../src/index.js";
import { hex } from "./shared.js";
import { prng } from "./tree-fixtures.js";

export type ValueShape = "one" | "few" | "mixed" | "sparse";

/** Byte order of two stems. */
export function compareStems(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/**
 * Values for one stem: "one" = subindex 0; "few" = 1..4 random slots; "mixed" = "few" plus
 * stems without values and full 256-value stems; "sparse" = mostly value-less stems (cheap to
 * hash, for the big structural runs) with one value in every 8th.
 */
function valuesFor(rand: (n: number) => Uint8Array, shape: ValueShape): (Uint8Array | undefined)[] {
  const values: (Uint8Array | undefined)[] = new Array(256).fill(undefined);
  if (shape === "one") {
    values[0] = rand(32);
    return values;
  }
  const r = rand(2);
  if (shape === "sparse") {
    if (r[0]! % 8 === 0) values[r[1]!] = rand(32);
    return values;
  }
  if (shape === "mixed" && r[0]! % 16 === 0) return []; // a stem without values
  if (shape === "mixed" && r[0]! % 16 === 1) {
    for (let i = 0; i < 256; i++) values[i] = rand(32);
    return values;
  }
  const count = 1 + (r[1]! % 4);
  for (let i = 0; i < count; i++) values[rand(1)[0]!] = rand(32);
  return values;
}

function sortedUnique(stems: Uint8Array[]): Uint8Array[] {
  const seen = new Set<string>();
  const out: Uint8Array[] = [];
  for (const s of stems) {
    const k = hex(s);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(s);
  }
  return out.sort(compareStems);
}

function withValues(seed: number, stems: Uint8Array[], shape: ValueShape): StemEntry[] {
  const rand = prng(seed ^ 0x2545f491);
  return stems.map((stem) => ({ stem, values: valuesFor(rand, shape) }));
}

/** `n` uniformly random stems, sorted. */
export function randomStems(seed: number, n: number, shape: ValueShape = "few"): StemEntry[] {
  const rand = prng(seed);
  const stems: Uint8Array[] = [];
  while (stems.length < n) stems.push(rand(31));
  return withValues(seed, sortedUnique(stems), shape);
}

/**
 * `n` stems with long shared prefixes: each new stem copies an earlier one up to a divergence
 * bit, chosen over the whole 0..247 range for a `deepFraction` of them (deep one-child chains,
 * stems ending at every depth of a group, some differing only in their last bit) and near the
 * natural depth for the rest (dense clusters around shared prefixes).
 */
export function adversarialStems(
  seed: number,
  n: number,
  shape: ValueShape = "few",
  deepFraction = 0.5,
): StemEntry[] {
  const rand = prng(seed);
  const stems: Uint8Array[] = [rand(31)];
  const seen = new Set<string>([hex(stems[0]!)]);
  const shallow = 8 + Math.ceil(Math.log2(n + 1));
  while (stems.length < n) {
    const r = rand(6);
    const base = stems[((r[0]! << 8) | r[1]!) % stems.length]!;
    const deep = ((r[2]! << 8) | r[3]!) / 65536 < deepFraction;
    const bit = deep ? ((r[4]! << 8) | r[5]!) % 248 : r[4]! % shallow;
    const stem = rand(31);
    const byte = bit >>> 3;
    const mask = 0x80 >>> (bit & 7);
    for (let j = 0; j < byte; j++) stem[j] = base[j]!;
    const keep = (0xff00 >>> (bit & 7)) & 0xff;
    stem[byte] = (base[byte]! & keep) | (~base[byte]! & mask) | (stem[byte]! & (mask - 1));
    const k = hex(stem);
    if (seen.has(k)) continue;
    seen.add(k);
    stems.push(stem);
  }
  return withValues(seed, sortedUnique(stems), shape);
}

/** The commit node set of a fresh tree holding these stems (inserted in reverse order). */
export function referenceCommit(stems: readonly StemEntry[], groupDepth: number): NodeSet {
  const tree = new BinaryTree({ groupDepth });
  for (let i = stems.length - 1; i >= 0; i--) tree.putStem(stems[i]!.stem, stems[i]!.values);
  return tree.commit();
}

/** The builder's records and root for these (sorted) stems. */
export function builderOutput(
  stems: readonly StemEntry[],
  groupDepth: number,
  stemBatchSize?: number,
): { root: Uint8Array; writes: NodeWrite[] } {
  const writes: NodeWrite[] = [];
  const builder = new StreamingBuilder({
    groupDepth,
    ...(stemBatchSize === undefined ? {} : { stemBatchSize }),
    onNode: (node) => writes.push(node),
  });
  for (const { stem, values } of stems) builder.addStem(stem, values);
  return { root: builder.finish(), writes };
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * undefined when both record lists are identical (same records, same order); otherwise a
 * description of the first difference, in hex.
 */
export function firstDifference(
  actual: readonly NodeWrite[],
  expected: readonly NodeWrite[],
): string | undefined {
  const n = Math.max(actual.length, expected.length);
  for (let i = 0; i < n; i++) {
    const a = actual[i];
    const e = expected[i];
    if (
      a === undefined ||
      e === undefined ||
      !equalBytes(a.path, e.path) ||
      !equalBytes(a.hash, e.hash) ||
      !equalBytes(a.blob, e.blob)
    ) {
      const show = (w: NodeWrite | undefined) =>
        w === undefined
          ? "nothing"
          : `path ${hex(w.path)} hash ${hex(w.hash)} blob ${hex(w.blob).slice(0, 80)}… (${w.blob.length} bytes)`;
      return `record ${i} of ${actual.length} (expected ${expected.length}): got ${show(a)}, expected ${show(e)}`;
    }
  }
  return undefined;
}

/** The records sorted by path key (the comparison the issue asks for). */
export function sortedByPath(writes: readonly NodeWrite[]): NodeWrite[] {
  return [...writes].sort((a, b) => compareStems(a.path, b.path));
}
