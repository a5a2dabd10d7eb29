import { CodecError, type DecodedNode, decodeNode, encodePathKey, nodeDbKey } from "@bintrie/codec";
import type { Hasher, KVStore } from "@bintrie/core";
import { toHex } from "./hex.js";
import { appendPositionBits, bitString, nodeBlobHash } from "./node-digest.js";

/** Why a reachable node is not what its parent says it is. */
export type WalkProblemCode =
  | "MISSING_NODE"
  | "UNDECODABLE_NODE"
  | "HASH_MISMATCH"
  | "MISPLACED_NODE";

export interface WalkProblem {
  readonly code: WalkProblemCode;
  /** The node's path key (empty for the root). */
  readonly path: Uint8Array;
  readonly depth: number;
  readonly message: string;
}

/** A reachable node that decoded and hashed to what its parent stores. */
export interface WalkedNode {
  readonly path: Uint8Array;
  readonly depth: number;
  readonly blob: Uint8Array;
  readonly node: DecodedNode;
}

export interface WalkOptions {
  /** The root hash to start from (a non-empty root). */
  readonly root: Uint8Array;
  /** The tree's group depth (0 = flat 65-byte internal nodes). */
  readonly groupDepth: number;
  readonly hasher: Hasher;
  /** Node blobs read per store round trip. Default 1024. */
  readonly batchSize?: number;
  onNode(node: WalkedNode): void;
  onProblem(problem: WalkProblem): void;
}

interface Pending {
  readonly bits: Uint8Array;
  readonly depth: number;
  readonly expected: Uint8Array;
}

/**
 * Walks every node reachable from `root` by path, reading blobs in batches: each blob must
 * exist, decode, sit where its kind may sit, and hash to the hash its parent stores. Children of
 * a node that fails a check are not visited (their expected hashes cannot be trusted).
 */
export async function walkStoredTree(store: KVStore, options: WalkOptions): Promise<void> {
  const batchSize = options.batchSize ?? 1024;
  // Depth-first in batches, so the pending list stays about depth x fan-out x batch.
  const pending: Pending[] = [{ bits: new Uint8Array(32), depth: 0, expected: options.root }];
  while (pending.length > 0) {
    const batch = pending.splice(Math.max(0, pending.length - batchSize));
    const paths = batch.map((p) => encodePathKey(p.bits, p.depth));
    const blobs = await store.getMany(paths.map((path) => nodeDbKey(path)));
    for (let i = 0; i < batch.length; i++) {
      checkNode(batch[i]!, paths[i]!, blobs[i], options, pending);
    }
  }
}

function checkNode(
  at: Pending,
  path: Uint8Array,
  blob: Uint8Array | undefined,
  options: WalkOptions,
  pending: Pending[],
): void {
  const where = `path ${describePath(path, at.bits, at.depth)}`;
  const problem = (code: WalkProblemCode, message: string) =>
    options.onProblem({ code, path, depth: at.depth, message: `${where}: ${message}` });
  if (blob === undefined || blob.length === 0) {
    problem("MISSING_NODE", `node is missing (its parent expects hash ${toHex(at.expected)})`);
    return;
  }
  let node: DecodedNode;
  try {
    node = decodeNode(blob);
  } catch (error) {
    if (!(error instanceof CodecError)) throw error;
    problem("UNDECODABLE_NODE", `blob of ${blob.length} bytes does not decode: ${error.message}`);
    return;
  }
  const g = options.groupDepth;
  if (node.kind === "stem" && !stemMatchesPath(node.stem, at.bits, at.depth)) {
    problem("MISPLACED_NODE", `stem ${toHex(node.stem)} does not start with the node's path`);
    return;
  }
  if (node.kind === "group" && (node.groupDepth !== g || at.depth % g !== 0)) {
    problem(
      "MISPLACED_NODE",
      g === 0
        ? "a group blob in a tree of flat internal nodes (group depth 0)"
        : `group blob with group depth ${node.groupDepth} at depth ${at.depth}; the tree uses group depth ${g} (groups start at multiples of ${g})`,
    );
    return;
  }
  if (node.kind === "internal" && g !== 0) {
    problem("MISPLACED_NODE", `a flat 65-byte internal node in a tree of group depth ${g}`);
    return;
  }
  const actual = nodeBlobHash(options.hasher, node);
  if (!equalBytes(actual, at.expected)) {
    problem(
      "HASH_MISMATCH",
      `node hashes to ${toHex(actual)}, but its parent expects ${toHex(at.expected)}`,
    );
    return;
  }
  options.onNode({ path, depth: at.depth, blob, node });
  if (node.kind === "group") {
    for (let e = 0; e < node.count; e++) {
      const offset = node.depthOffsets[e]!;
      const bits = at.bits.slice();
      appendPositionBits(bits, at.depth, node.positions[e]!, offset, node.groupDepth);
      const expected = node.hashes.subarray(e * 32, e * 32 + 32);
      if (!isZero(expected)) pending.push({ bits, depth: at.depth + offset, expected });
    }
  } else if (node.kind === "internal") {
    for (let side = 1; side >= 0; side--) {
      const expected = side === 0 ? node.left : node.right;
      if (isZero(expected)) continue;
      const bits = at.bits.slice();
      appendPositionBits(bits, at.depth, side, 1, 1);
      pending.push({ bits, depth: at.depth + 1, expected });
    }
  }
}

/** "0x8001 (bits 1)" or "0x (root)". */
export function describePath(path: Uint8Array, bits: Uint8Array, depth: number): string {
  return depth === 0 ? "0x (root)" : `${toHex(path)} (bits ${bitString(bits, depth)})`;
}

function stemMatchesPath(stem: Uint8Array, bits: Uint8Array, depth: number): boolean {
  if (depth > 248) return false;
  for (let d = 0; d < depth; d++) {
    const mask = 0x80 >>> (d & 7);
    if ((stem[d >>> 3]! & mask) !== (bits[d >>> 3]! & mask)) return false;
  }
  return true;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function isZero(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}
