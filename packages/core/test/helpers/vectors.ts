/**
 * Loader for the vendored vector files (testdata/reference, testdata/geth; see their
 * PROVENANCE.md), plus the hex and tree helpers the tests need.
 */
import { readFileSync } from "node:fs";
import type { Hasher } from "../../src/hash/hasher.js";
import { hashInternal, hashStem } from "../../src/hash/node-hash.js";
import { testdataUrl } from "./shared.js";

export type Variant = "blake3-le" | "blake3-be" | "sha256-le" | "sha256-be";
export const VARIANTS: readonly Variant[] = ["blake3-le", "blake3-be", "sha256-le", "sha256-be"];
export type PerVariant = Record<Variant, string>;
export type PerHash = { blake3: string; sha256: string };

export interface RawTreeKeyVector {
  address: string;
  tree_index: string;
  sub_index: number;
  key: PerVariant;
}

export interface AccountEmbeddingVector {
  address: string;
  basic_data: PerVariant;
  code_hash: PerVariant;
  storage_slots: { slot: string; tree_index: string; sub_index: number; key: PerVariant }[];
  code_chunks: {
    chunk_id: number;
    tree_index: number | string;
    sub_index: number;
    key: PerVariant;
  }[];
}

export interface BasicDataVector {
  version: number;
  code_size: number;
  nonce: string;
  balance: string;
  value: string;
}

export interface ChunkifyVector {
  name: string;
  code: string;
  chunks: string[];
}

export interface TreeVector {
  name: string;
  ops: { op: "insert"; key: string; value: string }[];
  expected_root: PerHash;
}

export interface AllocAccount {
  balance?: string;
  nonce?: string;
  code?: string;
  storage?: Record<string, string>;
}

export interface StateRootVector {
  name: string;
  alloc: Record<string, AllocAccount>;
  expected_root: PerVariant;
  leaf_count: Record<Variant, number>;
  leaves_sha256_be?: { key: string; value: string }[];
}

export interface ReferenceVectors {
  tree_vectors: TreeVector[];
  random_1000: {
    checkpoints: { inserted: number; expected_root: PerHash }[];
    first_keys: { i: number; key: string; value: string }[];
  };
  clustered_1000: { expected_root: PerHash };
  tree_key_vectors: {
    raw_get_tree_key: RawTreeKeyVector[];
    account_embedding: AccountEmbeddingVector[];
  };
  basic_data_vectors: BasicDataVector[];
  chunkify_vectors: ChunkifyVector[];
  state_root_vectors: { vectors: StateRootVector[] };
  variants: Record<Variant, string>;
}

type DerivedKeys = { ethereumjs: string; ref: string };
export interface EthereumjsKeyDerivationHash {
  basic_data_key: DerivedKeys;
  code_hash_key: DerivedKeys;
  storage_slot_keys: Record<string, DerivedKeys>;
  code_chunk_keys: Record<string, DerivedKeys>;
}

export interface EthereumjsVectors {
  key_derivation: {
    address: string;
    address32: string;
    rule: string;
    hashes: { blake3: EthereumjsKeyDerivationHash; sha256: EthereumjsKeyDerivationHash };
    basic_data_encoding: Record<string, string>;
    chunkify: { code: string; chunks: string[] };
  };
}

function readText(path: string): string {
  return readFileSync(testdataUrl(path), "utf8");
}

export function loadReferenceVectors(): ReferenceVectors {
  return JSON.parse(readText("reference/eip7864-reference.json")) as ReferenceVectors;
}

export function loadEthereumjsVectors(): EthereumjsVectors {
  return JSON.parse(readText("reference/ethereumjs-vectors.json")) as EthereumjsVectors;
}

/** The geth spec's §6 (markdown, vendored), for the tables that exist only there (§6.2, §6.3). */
export function loadGethSpec(): string {
  return readText("geth/geth-bintrie-section-6.md");
}

/** Lines of the first fenced block after the line containing `heading` in `markdown`. */
export function fencedBlockAfter(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(heading);
  if (start < 0) throw new Error(`heading ${JSON.stringify(heading)} not found in spec`);
  const open = markdown.indexOf("```", start);
  const bodyStart = markdown.indexOf("\n", open) + 1;
  const close = markdown.indexOf("```", bodyStart);
  return markdown.slice(bodyStart, close).split("\n");
}

export function hexToBytes(hex: string): Uint8Array {
  const digits = hex.startsWith("0x") ? hex.slice(2) : hex;
  if (digits.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(digits)) {
    throw new Error(`bad hex ${JSON.stringify(hex)}`);
  }
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** 0x-prefixed lowercase hex, the vectors' convention. */
export function bytesToHex(bytes: Uint8Array): string {
  let hex = "0x";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** A genesis-style hex quantity ("0x1", "0x0de0...") as a bigint; absent = 0. */
export function quantity(hex: string | undefined): bigint {
  return hex === undefined || hex === "0x" ? 0n : BigInt(hex);
}

/**
 * Independent root of a key/value set (not the package's tree): stems are grouped, then split
 * recursively on stem bits MSB-first; one stem is its own subtree, none is 0^32. Only the
 * node-hash functions under test are shared with the package.
 */
export function referenceRoot(hasher: Hasher, leaves: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const stems = new Map<string, { stem: Uint8Array; values: (Uint8Array | undefined)[] }>();
  for (const [keyHex, value] of leaves) {
    const key = hexToBytes(keyHex);
    const stemHex = bytesToHex(key.subarray(0, 31));
    let entry = stems.get(stemHex);
    if (entry === undefined) {
      entry = { stem: key.slice(0, 31), values: new Array(256).fill(undefined) };
      stems.set(stemHex, entry);
    }
    entry.values[key[31]!] = value;
  }
  const bit = (stem: Uint8Array, depth: number): number =>
    (stem[depth >> 3]! >> (7 - (depth & 7))) & 1;
  const build = (
    group: { stem: Uint8Array; values: (Uint8Array | undefined)[] }[],
    depth: number,
  ): Uint8Array => {
    if (group.length === 0) return new Uint8Array(32);
    if (group.length === 1) return hashStem(hasher, group[0]!.stem, group[0]!.values);
    const left = group.filter((s) => bit(s.stem, depth) === 0);
    const right = group.filter((s) => bit(s.stem, depth) === 1);
    return hashInternal(hasher, build(left, depth + 1), build(right, depth + 1));
  };
  return build([...stems.values()], 0);
}
