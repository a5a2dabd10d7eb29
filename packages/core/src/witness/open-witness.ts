import { assertKnownOptions, encodePathKey, NODE_KEY_PREFIX } from "@bintrie/codec";
import { isZero } from "../bytes/is-zero.js";
import type { Hasher } from "../hash/hasher.js";
import { optionKeys } from "../options/known-options.js";
import { bytesToKeyString } from "../store/bytes-order.js";
import { arenaOf, BinaryTree, type DeletionMode } from "../tree/binary-tree.js";
import { NodeLoader } from "../tree/node-loader.js";
import { KIND_HASHED, KIND_INTERNAL, makeRef, refIndex, refKind } from "../tree/node-ref.js";
import { StaleHasher } from "../tree/stale-hasher.js";
import { TreeError } from "../tree/tree-error.js";
import type { Witness } from "./witness.js";
import { assertWitness, sortedWitnessNodes } from "./witness-codec.js";
import { WitnessStore } from "./witness-store.js";

export interface OpenWitnessOptions {
  /** Deletion semantics of the replay; must be the recording tree's. Default 'zero'. */
  readonly deletionMode?: DeletionMode;
  /** A node hasher for the witness's scheme (for example a faster SHA-256 kernel). */
  readonly hasher?: Hasher;
}

/**
 * A tree holding only the witness nodes, every one checked against the hash its parent (or the
 * witness root) holds; everything else is a hashed placeholder. The recorded reads return the
 * recorded values and the recorded writes reach the recorded post root. Going outside the
 * witness is an error: TreeError('MISSING_NODE') from the synchronous methods,
 * TreeError('NOT_IN_WITNESS') from the loading ones. A malformed witness (including a node path
 * that appears twice, or a node not reachable from the root) is TreeError('MALFORMED_WITNESS');
 * `options` that are not an object (or undefined), or that have a key other than
 * `deletionMode` and `hasher`, are TreeError('INVALID_OPTION') (the tree checks their values).
 */
export function openWitness(witness: Witness, options: OpenWitnessOptions = {}): BinaryTree {
  assertWitness(witness);
  assertKnownOptions(options, OPEN_WITNESS_OPTION_KEYS, "openWitness", TreeError);
  const nodes = sortedWitnessNodes(witness);
  const store = new WitnessStore(witness, NODE_KEY_PREFIX);
  const tree = new BinaryTree({
    scheme: witness.scheme,
    groupDepth: witness.groupDepth,
    deletionMode: options.deletionMode,
    hasher: options.hasher,
    store,
  });
  const blobs = new Map<string, Uint8Array>();
  for (const node of nodes) blobs.set(bytesToKeyString(node.path), node.blob);
  if (isZero(witness.root)) {
    if (blobs.size > 0) {
      throw new TreeError("MALFORMED_WITNESS", "witness: an empty pre-state has no nodes");
    }
    return tree;
  }
  const arena = arenaOf(tree);
  const loader = new NodeLoader(arena, new StaleHasher(arena, tree.hasher), witness.groupDepth);
  const rootBlob = blobs.get("");
  if (rootBlob === undefined) {
    if (blobs.size > 0) {
      throw new TreeError("MALFORMED_WITNESS", "witness: the root node (empty path) is missing");
    }
    // The witness of no operation: the root alone, as a placeholder.
    arena.root = makeRef(KIND_HASHED, arena.hashed.alloc(witness.root, 0));
    return tree;
  }
  arena.root = loader.load(rootBlob, 0, new Uint8Array(32), witness.root, 0);
  // Depth first from the root: every placeholder whose path the witness holds is replaced by
  // its node (verified against the placeholder's hash), so the whole witness is in memory.
  const stack: { index: number; bits: Uint8Array }[] = [];
  if (refKind(arena.root) === KIND_INTERNAL)
    stack.push({ index: refIndex(arena.root), bits: new Uint8Array(32) });
  let used = 1;
  const { internals, hashed } = arena;
  while (stack.length > 0) {
    const { index, bits } = stack.pop()!;
    const depth = internals.getDepth(index);
    for (let side = 0; side < 2; side++) {
      const childBits = bits.slice();
      if (side === 1) childBits[depth >>> 3]! |= 0x80 >>> (depth & 7);
      let child = internals.getChild(index, side);
      if (refKind(child) === KIND_HASHED) {
        const blob = blobs.get(bytesToKeyString(encodePathKey(childBits, depth + 1)));
        if (blob !== undefined) {
          const h = refIndex(child);
          child = loader.load(
            blob,
            depth + 1,
            childBits,
            hashed.hashChunk(h),
            hashed.hashOffset(h),
          );
          internals.setChild(index, side, child);
          hashed.release(h);
          used++;
        }
      }
      if (refKind(child) === KIND_INTERNAL) stack.push({ index: refIndex(child), bits: childBits });
    }
  }
  if (used !== blobs.size) {
    throw new TreeError(
      "MALFORMED_WITNESS",
      `witness: ${blobs.size - used} of its ${blobs.size} nodes are not reachable from the root through the others`,
    );
  }
  return tree;
}

const OPEN_WITNESS_OPTION_KEYS = optionKeys<OpenWitnessOptions>()(["deletionMode", "hasher"]);
