import {
  CodecError,
  type DecodedNode,
  decodeNode,
  NODE_KEY_PREFIX,
  pathKeySize,
  writePathKey,
} from "@bintrie/codec";
import type { KVStore } from "@bintrie/core";
import { bytesToHex } from "@bintrie/core";
import { isZero } from "@bintrie/core/bytes";
import type { GroupHasher } from "./group-hasher.js";
import { appendPositionBits, bitString } from "./node-digest.js";
import type { StemHashBatch, StemToHash } from "./stem-hasher.js";

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
  /** "path 0x… (bits …): what is wrong". */
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
  readonly hashStems: StemHashBatch;
  readonly groupHasher: GroupHasher;
  /** Hashes a flat internal node's left ‖ right. */
  readonly hashPair: (left: Uint8Array, right: Uint8Array) => Uint8Array;
  /** Node blobs read per store round trip. Default 1024. */
  readonly batchSize?: number;
  /** Store round trips kept in flight. Default 3. */
  readonly readAhead?: number;
  onNode(node: WalkedNode): void;
  onProblem(problem: WalkProblem): void;
}

interface Pending {
  readonly bits: Uint8Array;
  readonly depth: number;
  readonly expected: Uint8Array;
}

interface Fetched {
  readonly batch: Pending[];
  readonly keys: Uint8Array[];
  readonly blobs: (Uint8Array | undefined)[];
}

/**
 * Walks every node reachable from `root` by path, reading blobs in batches (several in flight):
 * each blob must exist, decode, sit where its kind may sit, and hash to the hash its parent
 * stores. Children of a node that fails a check are not visited (their expected hashes cannot
 * be trusted).
 */
export async function walkStoredTree(store: KVStore, options: WalkOptions): Promise<void> {
  const batchSize = options.batchSize ?? 1024;
  const readAhead = options.readAhead ?? 3;
  // Depth-first in batches, so the pending list stays about depth x fan-out x batch.
  const pending: Pending[] = [{ bits: new Uint8Array(32), depth: 0, expected: options.root }];
  const inflight: Promise<Fetched>[] = [];
  while (pending.length > 0 || inflight.length > 0) {
    while (inflight.length < readAhead && pending.length > 0) {
      const batch = pending.splice(Math.max(0, pending.length - batchSize));
      const keys = batch.map((p) => nodeKey(p.bits, p.depth));
      inflight.push(store.getMany(keys).then((blobs) => ({ batch, keys, blobs })));
    }
    checkBatch(await inflight.shift()!, options, pending);
  }
}

/** "vA" + path key, in one allocation. */
function nodeKey(bits: Uint8Array, depth: number): Uint8Array {
  const key = new Uint8Array(NODE_KEY_PREFIX.length + pathKeySize(depth));
  key.set(NODE_KEY_PREFIX, 0);
  writePathKey(bits, depth, key, NODE_KEY_PREFIX.length);
  return key;
}

function checkBatch(
  { batch, keys, blobs }: Fetched,
  options: WalkOptions,
  pending: Pending[],
): void {
  const g = options.groupDepth;
  const decoded: (DecodedNode | undefined)[] = new Array(batch.length);
  const stems: StemToHash[] = [];
  const stemAt: number[] = [];
  for (let i = 0; i < batch.length; i++) {
    const at = batch[i]!;
    const blob = blobs[i];
    const problem = (code: WalkProblemCode, why: string) =>
      report(options, code, at, keys[i]!, why);
    if (blob === undefined || blob.length === 0) {
      problem(
        "MISSING_NODE",
        `node is missing (its parent expects hash ${bytesToHex(at.expected)})`,
      );
      continue;
    }
    let node: DecodedNode;
    try {
      node = decodeNode(blob);
    } catch (error) {
      if (!(error instanceof CodecError)) throw error;
      problem("UNDECODABLE_NODE", `blob of ${blob.length} bytes does not decode: ${error.message}`);
      continue;
    }
    if (node.kind === "stem") {
      if (!stemMatchesPath(node.stem, at.bits, at.depth)) {
        problem(
          "MISPLACED_NODE",
          `stem ${bytesToHex(node.stem)} does not start with the node's path`,
        );
        continue;
      }
      stems.push({ blob: blob.subarray(0, 64 + node.count * 32), stem: node });
      stemAt.push(i);
    } else if (node.kind === "group" && (node.groupDepth !== g || at.depth % g !== 0)) {
      problem(
        "MISPLACED_NODE",
        g === 0
          ? "a group blob in a tree of flat internal nodes (group depth 0)"
          : `group blob with group depth ${node.groupDepth} at depth ${at.depth}; the tree uses group depth ${g} (groups start at multiples of ${g})`,
      );
      continue;
    } else if (node.kind === "internal" && g !== 0) {
      problem("MISPLACED_NODE", `a flat 65-byte internal node in a tree of group depth ${g}`);
      continue;
    }
    decoded[i] = node;
  }
  // Stems are hashed together, one batch call per level for the whole batch.
  const stemHashes = stems.length > 0 ? options.hashStems(stems) : new Uint8Array(0);
  const stemHash: (Uint8Array | undefined)[] = new Array(batch.length);
  stemAt.forEach((i, k) => {
    stemHash[i] = stemHashes.subarray(k * 32, k * 32 + 32);
  });
  for (let i = 0; i < batch.length; i++) {
    const node = decoded[i];
    if (node === undefined) continue;
    const at = batch[i]!;
    let actual: Uint8Array;
    if (node.kind === "stem") actual = stemHash[i]!;
    else if (node.kind === "group") actual = options.groupHasher.hash(node);
    else if (node.kind === "internal") actual = options.hashPair(node.left, node.right);
    else actual = new Uint8Array(32);
    if (!equal32(actual, at.expected)) {
      report(
        options,
        "HASH_MISMATCH",
        at,
        keys[i]!,
        `node hashes to ${bytesToHex(actual)}, but its parent expects ${bytesToHex(at.expected)}`,
      );
      continue;
    }
    const path = keys[i]!.subarray(NODE_KEY_PREFIX.length);
    options.onNode({ path, depth: at.depth, blob: blobs[i]!, node });
    if (node.kind === "group") {
      for (let e = 0; e < node.count; e++) {
        const expected = node.hashes.subarray(e * 32, e * 32 + 32);
        if (isZero(expected)) continue;
        const offset = node.depthOffsets[e]!;
        const bits = at.bits.slice();
        appendPositionBits(bits, at.depth, node.positions[e]!, offset, node.groupDepth);
        pending.push({ bits, depth: at.depth + offset, expected });
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
}

function report(
  options: WalkOptions,
  code: WalkProblemCode,
  at: Pending,
  key: Uint8Array,
  why: string,
): void {
  const path = key.subarray(NODE_KEY_PREFIX.length);
  options.onProblem({
    code,
    path,
    depth: at.depth,
    message: `path ${describePath(path, at.bits, at.depth)}: ${why}`,
  });
}

/** "0x8001 (bits 1)" or "0x (root)". */
export function describePath(path: Uint8Array, bits: Uint8Array, depth: number): string {
  return depth === 0 ? "0x (root)" : `${bytesToHex(path)} (bits ${bitString(bits, depth)})`;
}

function stemMatchesPath(stem: Uint8Array, bits: Uint8Array, depth: number): boolean {
  if (depth > 248) return false;
  for (let d = 0; d < depth; d++) {
    const mask = 0x80 >>> (d & 7);
    if ((stem[d >>> 3]! & mask) !== (bits[d >>> 3]! & mask)) return false;
  }
  return true;
}

function equal32(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return false;
  return true;
}
