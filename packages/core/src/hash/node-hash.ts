import { describeValue } from "@bintrie/codec";
import { HashError } from "./errors.js";
import { type Hasher, isBatchKernel } from "./hasher.js";

/**
 * Reference node-hash rules of geth `trie/bintrie` (spec §2), one node per call. Builders may
 * batch whole levels through `Hasher.hash64Batch` instead; these functions define the bytes.
 * Bad arguments are HashError: a hasher that is not a Hasher or stem values of the wrong shape
 * 'INVALID_ARGUMENT', bytes that are not a Uint8Array of the right length 'INVALID_LENGTH'.
 */

/** Hash of an empty node, an absent leaf and the empty tree: 32 zero bytes. Treat as read-only. */
export const EMPTY_HASH: Uint8Array = new Uint8Array(32);

/** Values per stem node. */
const STEM_WIDTH = 256;
/** Levels of the binary tree over a stem's 256 leaf hashes. */
const STEM_LEVELS = 8;

// Scratch shared by the single-threaded functions below; nothing is kept across calls.
const pair = new Uint8Array(64);
const denseLevel = new Uint8Array(STEM_WIDTH * 32);
const denseNonZero = new Uint8Array(STEM_WIDTH);
const sparseNodes = new Uint8Array(STEM_WIDTH * 32);
const sparsePairs = new Uint8Array((STEM_WIDTH / 2) * 64);
const sparsePositions = new Uint16Array(STEM_WIDTH);
// Word views make the 32-byte copies of the sparse fold cheap and allocation-free.
const sparseNodeWords = new Uint32Array(sparseNodes.buffer);
const sparsePairWords = new Uint32Array(sparsePairs.buffer);

function assertLength(what: string, bytes: Uint8Array, length: number): void {
  if (!(bytes instanceof Uint8Array) || bytes.length !== length) {
    throw new HashError(
      "INVALID_LENGTH",
      `${what} must be ${length} bytes, got ${bytes instanceof Uint8Array ? bytes.length : describeValue(bytes)}`,
    );
  }
}

function assertHasher(hasher: Hasher): void {
  if (!isBatchKernel(hasher)) {
    throw new HashError(
      "INVALID_ARGUMENT",
      `hasher must be a Hasher (hash32Batch, hash64Batch), got ${describeValue(hasher)}`,
    );
  }
}

function outputOrNew(out: Uint8Array | undefined): Uint8Array {
  if (out === undefined) return new Uint8Array(32);
  if (!(out instanceof Uint8Array) || out.length < 32) {
    throw new HashError(
      "INVALID_LENGTH",
      `output buffer must hold 32 bytes, got ${out instanceof Uint8Array ? out.length : describeValue(out)}`,
    );
  }
  return out;
}

/**
 * Leaf hash of a present 32-byte value: H(value). A zero value is present and hashes too.
 *
 * @example
 * ```ts
 * import { getHasher } from "@bintrie/core";
 * import { hashLeafValue } from "@bintrie/core/hash";
 *
 * hashLeafValue(getHasher("sha256"), new Uint8Array(32)); // sha256 of 32 zero bytes
 * ```
 */
export function hashLeafValue(hasher: Hasher, value32: Uint8Array, out?: Uint8Array): Uint8Array {
  assertHasher(hasher);
  assertLength("leaf value", value32, 32);
  const result = outputOrNew(out);
  hasher.hash32Batch(value32, 0, 1, result, 0);
  return result;
}

/**
 * Internal node hash: H(left || right), empty children as 32 zero bytes. geth has no zero
 * short-circuit here (two empty children would give H(0^64), not 0^32; geth never builds one).
 *
 * @example
 * ```ts
 * import { EMPTY_HASH, getHasher } from "@bintrie/core";
 * import { hashInternal } from "@bintrie/core/hash";
 *
 * hashInternal(getHasher("sha256"), EMPTY_HASH, EMPTY_HASH); // EMPTY_HASH: two empty children
 * ```
 */
export function hashInternal(
  hasher: Hasher,
  left32: Uint8Array,
  right32: Uint8Array,
  out?: Uint8Array,
): Uint8Array {
  assertHasher(hasher);
  assertLength("left child hash", left32, 32);
  assertLength("right child hash", right32, 32);
  const result = outputOrNew(out);
  pair.set(left32, 0);
  pair.set(right32, 32);
  hasher.hash64Batch(pair, 0, 1, result, 0);
  return result;
}

/** H(stem || 0x00 || subtreeRoot) from `subtreeRoot` at root[rootOffset..+32]. */
function hashStemOverRoot(
  hasher: Hasher,
  stem31: Uint8Array,
  root: Uint8Array,
  rootOffset: number,
  rootIsZero: boolean,
  out: Uint8Array,
): Uint8Array {
  pair.set(stem31, 0);
  pair[31] = 0;
  if (rootIsZero) {
    pair.fill(0, 32, 64);
  } else {
    for (let b = 0; b < 32; b++) pair[32 + b] = root[rootOffset + b]!;
  }
  hasher.hash64Batch(pair, 0, 1, out, 0);
  return out;
}

/**
 * Stem node hash from its 256 slots (index = subindex; a shorter array leaves the rest absent).
 * Leaf = H(value) for present values, absent = 0^32; 8 levels where a pair of zero hashes gives
 * zero and anything else H(left || right); then H(stem || 0x00 || root). A stem without values
 * still hashes to H(stem || 0x00 || 0^32), which is not zero.
 *
 * `values` is either the slots array, or only the present values ({@link SparseStemValues},
 * the form a decoded stem blob has): the same hash, and the sparse form hashes only the parents
 * that have a present descendant.
 *
 * @example
 * ```ts
 * import { getHasher } from "@bintrie/core";
 * import { hashStem } from "@bintrie/core/hash";
 *
 * const stem = new Uint8Array(31);
 * const value = new Uint8Array(32).fill(1);
 * const dense = hashStem(getHasher("sha256"), stem, [value]);
 * const sparse = hashStem(getHasher("sha256"), stem, { subindices: [0], values: value, count: 1 });
 * // dense and sparse hold the same 32 bytes
 * ```
 */
export function hashStem(
  hasher: Hasher,
  stem31: Uint8Array,
  values: ReadonlyArray<Uint8Array | null | undefined> | SparseStemValues,
  out?: Uint8Array,
): Uint8Array {
  assertHasher(hasher);
  if (!Array.isArray(values)) {
    if (typeof values !== "object" || values === null) {
      throw new HashError(
        "INVALID_ARGUMENT",
        `stem values must be an array of up to ${STEM_WIDTH} slots or { subindices, values, count }, got ${describeValue(values)}`,
      );
    }
    const sparse = values as SparseStemValues;
    return hashSparseStem(hasher, stem31, sparse.subindices, sparse.values, sparse.count, out);
  }
  return hashDenseStem(hasher, stem31, values, out);
}

/** The present values of a stem: `subindices[0..count)` ascending, values packed 32 bytes each. */
export interface SparseStemValues {
  readonly subindices: ArrayLike<number>;
  readonly values: Uint8Array;
  readonly count: number;
}

function hashDenseStem(
  hasher: Hasher,
  stem31: Uint8Array,
  values: ReadonlyArray<Uint8Array | null | undefined>,
  out?: Uint8Array,
): Uint8Array {
  assertLength("stem", stem31, 31);
  if (values.length > STEM_WIDTH) {
    throw new HashError(
      "INVALID_LENGTH",
      `a stem has ${STEM_WIDTH} slots, got ${values.length} values`,
    );
  }
  const result = outputOrNew(out);
  denseNonZero.fill(0);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) continue;
    if (!(value instanceof Uint8Array) || value.length !== 32) {
      throw new HashError(
        "INVALID_LENGTH",
        `stem value at subindex ${i} must be 32 bytes, got ${value instanceof Uint8Array ? value.length : describeValue(value)}`,
      );
    }
    hasher.hash32Batch(value, 0, 1, denseLevel, 32 * i);
    denseNonZero[i] = 1;
  }
  // Fold in place: parent i overwrites child slot i, already consumed by parent floor(i/2) <= i.
  for (let width = STEM_WIDTH / 2, level = 0; level < STEM_LEVELS; level++, width /= 2) {
    for (let i = 0; i < width; i++) {
      if (denseNonZero[2 * i] === 0 && denseNonZero[2 * i + 1] === 0) {
        denseNonZero[i] = 0;
        continue;
      }
      if (denseNonZero[2 * i] === 0) denseLevel.fill(0, 64 * i, 64 * i + 32);
      if (denseNonZero[2 * i + 1] === 0) denseLevel.fill(0, 64 * i + 32, 64 * i + 64);
      hasher.hash64Batch(denseLevel, 64 * i, 1, denseLevel, 32 * i);
      denseNonZero[i] = 1;
    }
  }
  return hashStemOverRoot(hasher, stem31, denseLevel, 0, denseNonZero[0] === 0, result);
}

/**
 * {@link hashStem} from only the present values: `subindices[0..count)` strictly increasing in
 * 0..255 and their values packed at values[32i..32i+32). Each level hashes only the parents
 * that have a present descendant, in one batch call.
 */
function hashSparseStem(
  hasher: Hasher,
  stem31: Uint8Array,
  subindices: ArrayLike<number>,
  values: Uint8Array,
  count: number,
  out?: Uint8Array,
): Uint8Array {
  assertLength("stem", stem31, 31);
  if (
    typeof subindices !== "object" ||
    subindices === null ||
    typeof subindices.length !== "number"
  ) {
    throw new HashError(
      "INVALID_SUBINDICES",
      `sparse stem values: subindices must be an array-like of numbers, got ${describeValue(subindices)}`,
    );
  }
  if (!Number.isInteger(count) || count < 0 || count > STEM_WIDTH || count > subindices.length) {
    throw new HashError(
      "INVALID_SUBINDICES",
      `sparse stem values: count ${describeValue(count)} must be an integer in 0..${STEM_WIDTH} and at most subindices.length ${subindices.length}`,
    );
  }
  if (!(values instanceof Uint8Array) || values.length < count * 32) {
    throw new HashError(
      "INVALID_LENGTH",
      `sparse stem values: ${count} packed values need ${count * 32} bytes, got ${values instanceof Uint8Array ? values.length : describeValue(values)}`,
    );
  }
  let previous = -1;
  for (let i = 0; i < count; i++) {
    const subindex = subindices[i];
    if (
      subindex === undefined ||
      !Number.isInteger(subindex) ||
      subindex <= previous ||
      subindex > 255
    ) {
      throw new HashError(
        "INVALID_SUBINDICES",
        `subindex ${describeValue(subindex)} at position ${i} is not an integer in ${previous + 1}..255 (must be strictly increasing)`,
      );
    }
    sparsePositions[i] = subindex;
    previous = subindex;
  }
  const result = outputOrNew(out);
  if (count === 0) return hashStemOverRoot(hasher, stem31, sparseNodes, 0, true, result);

  hasher.hash32Batch(values, 0, count, sparseNodes, 0);
  let live = count;
  for (let level = 0; level < STEM_LEVELS; level++) {
    // Lay out each parent's (left || right) pair, with 0^32 for a missing sibling.
    let parents = 0;
    for (let i = 0; i < live; parents++) {
      const position = sparsePositions[i]!;
      const pairWord = 16 * parents;
      const hasRightSibling =
        (position & 1) === 0 && i + 1 < live && sparsePositions[i + 1] === position + 1;
      if (hasRightSibling) {
        copyWords(sparseNodeWords, 8 * i, sparsePairWords, pairWord, 16);
        i += 2;
      } else if ((position & 1) === 0) {
        copyWords(sparseNodeWords, 8 * i, sparsePairWords, pairWord, 8);
        sparsePairWords.fill(0, pairWord + 8, pairWord + 16);
        i += 1;
      } else {
        sparsePairWords.fill(0, pairWord, pairWord + 8);
        copyWords(sparseNodeWords, 8 * i, sparsePairWords, pairWord + 8, 8);
        i += 1;
      }
      sparsePositions[parents] = position >> 1;
    }
    hasher.hash64Batch(sparsePairs, 0, parents, sparseNodes, 0);
    live = parents;
  }
  return hashStemOverRoot(hasher, stem31, sparseNodes, 0, false, result);
}

function copyWords(
  from: Uint32Array,
  fromIndex: number,
  to: Uint32Array,
  toIndex: number,
  words: number,
): void {
  for (let w = 0; w < words; w++) to[toIndex + w] = from[fromIndex + w]!;
}
