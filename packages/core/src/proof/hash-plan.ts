import type { Hasher } from "../hash/hasher.js";

/** Buffers above this size are dropped after a verification instead of kept for the next. */
const RETAINED_BYTES = 1 << 22;

/** Slot 0 always holds the zero hash (empty nodes, absent leaves, zero subtrees). */
export const ZERO_SLOT = 0;

/**
 * The node hashes a proof implies, as a flat graph of 32-byte slots: literals (sibling hashes
 * and stem prefixes copied from the proof), leaves (H(value)) and nodes (H(left || right)).
 * The reader only records the graph; `evaluate` then hashes all leaves in one batch and the
 * nodes height by height, one batch per height, so a SIMD kernel sees wide batches and nothing
 * is allocated per node.
 */
export class HashPlan {
  #hashes = new Uint8Array(256 * 32);
  /** The same bytes as 32-bit words: slot copies move 8 words instead of 32 bytes. */
  #hashWords = new Int32Array(this.#hashes.buffer);
  #height = new Uint16Array(256);
  #slots = 1;
  #nodeSlot = new Int32Array(128);
  #nodeLeft = new Int32Array(128);
  #nodeRight = new Int32Array(128);
  #nodes = 0;
  #leafSlot = new Int32Array(64);
  #leafSource = new Int32Array(64);
  #leaves = 0;
  #maxHeight = 0;
  #source: Uint8Array = new Uint8Array(0);
  #scratch = new Uint8Array(64 * 64);
  #scratchWords = new Int32Array(this.#scratch.buffer);
  #start = new Int32Array(512);
  #fill = new Int32Array(512);
  #order = new Int32Array(128);
  #busy = false;

  /** Starts a new graph whose literals and leaf values come from `source` (the proof). */
  begin(source: Uint8Array): boolean {
    if (this.#busy) return false;
    this.#busy = true;
    this.#source = source;
    this.#slots = 1;
    this.#nodes = 0;
    this.#leaves = 0;
    this.#maxHeight = 0;
    this.#hashes.fill(0, 0, 32);
    this.#height[0] = 0;
    return true;
  }

  /** Drops the reference to the proof and frees the plan for the next verification. */
  end(): void {
    this.#source = new Uint8Array(0);
    this.#busy = false;
    // A shared plan should not pin the memory of one huge proof forever.
    if (this.#hashes.length > RETAINED_BYTES) {
      this.#hashes = new Uint8Array(256 * 32);
      this.#hashWords = new Int32Array(this.#hashes.buffer);
      this.#height = new Uint16Array(256);
    }
    if (this.#nodeSlot.length > RETAINED_BYTES / 32) {
      this.#nodeSlot = new Int32Array(128);
      this.#nodeLeft = new Int32Array(128);
      this.#nodeRight = new Int32Array(128);
    }
    if (this.#leafSlot.length > RETAINED_BYTES / 32) {
      this.#leafSlot = new Int32Array(64);
      this.#leafSource = new Int32Array(64);
    }
    if (this.#scratch.length > RETAINED_BYTES) {
      this.#scratch = new Uint8Array(64 * 64);
      this.#scratchWords = new Int32Array(this.#scratch.buffer);
    }
    if (this.#order.length > RETAINED_BYTES / 4) this.#order = new Int32Array(128);
  }

  /** A slot holding the 32 bytes at source[offset..]. */
  literal(offset: number): number {
    const slot = this.#allocSlot(0);
    const hashes = this.#hashes;
    const source = this.#source;
    const at = slot << 5;
    for (let b = 0; b < 32; b++) hashes[at + b] = source[offset + b]!;
    return slot;
  }

  /** A slot holding a stem's 31 bytes at from[offset..] and a zero byte: H(stem || 0 || R)'s left half. */
  stemLiteral(from: Uint8Array, offset: number): number {
    const slot = this.#allocSlot(0);
    const hashes = this.#hashes;
    const at = slot << 5;
    for (let b = 0; b < 31; b++) hashes[at + b] = from[offset + b]!;
    hashes[at + 31] = 0;
    return slot;
  }

  /** A slot for H(value) of the 32-byte value at source[offset..]. */
  leaf(offset: number): number {
    const slot = this.#allocSlot(1);
    if (this.#leaves === this.#leafSlot.length) {
      this.#leafSlot = grow(this.#leafSlot);
      this.#leafSource = grow(this.#leafSource);
    }
    this.#leafSlot[this.#leaves] = slot;
    this.#leafSource[this.#leaves] = offset;
    this.#leaves++;
    return slot;
  }

  /** A slot for H(hash(left) || hash(right)). */
  node(left: number, right: number): number {
    const height = 1 + Math.max(this.#height[left]!, this.#height[right]!);
    const slot = this.#allocSlot(height);
    if (this.#nodes === this.#nodeSlot.length) {
      this.#nodeSlot = grow(this.#nodeSlot);
      this.#nodeLeft = grow(this.#nodeLeft);
      this.#nodeRight = grow(this.#nodeRight);
    }
    this.#nodeSlot[this.#nodes] = slot;
    this.#nodeLeft[this.#nodes] = left;
    this.#nodeRight[this.#nodes] = right;
    this.#nodes++;
    if (height > this.#maxHeight) this.#maxHeight = height;
    return slot;
  }

  /** Computes every leaf and node slot. */
  evaluate(hasher: Hasher): void {
    const source = this.#source;
    const leaves = this.#leaves;
    if (leaves > 0) {
      const values = this.#scratchFor(leaves * 32);
      for (let k = 0; k < leaves; k++) {
        const from = this.#leafSource[k]!;
        const at = k << 5;
        for (let b = 0; b < 32; b++) values[at + b] = source[from + b]!;
      }
      hasher.hash32Batch(values, 0, leaves, values, 0);
      const words = this.#scratchWords;
      const hashWords = this.#hashWords;
      for (let k = 0; k < leaves; k++) copy8(words, k << 3, hashWords, this.#leafSlot[k]! << 3);
    }
    const nodes = this.#nodes;
    if (nodes === 0) return;
    // Counting sort of the nodes by height: every child has a lower height than its parent.
    const maxHeight = this.#maxHeight;
    if (this.#start.length < maxHeight + 2) this.#start = new Int32Array(2 * (maxHeight + 2));
    if (this.#fill.length < maxHeight + 2) this.#fill = new Int32Array(2 * (maxHeight + 2));
    if (this.#order.length < nodes) this.#order = new Int32Array(2 * nodes);
    const start = this.#start;
    const fill = this.#fill;
    const order = this.#order;
    start.fill(0, 0, maxHeight + 2);
    const height = this.#height;
    const nodeSlot = this.#nodeSlot;
    for (let k = 0; k < nodes; k++) start[height[nodeSlot[k]!]! + 1]!++;
    for (let h = 1; h <= maxHeight + 1; h++) start[h]! += start[h - 1]!;
    fill.set(start.subarray(0, maxHeight + 2));
    for (let k = 0; k < nodes; k++) order[fill[height[nodeSlot[k]!]!]!++] = k;
    for (let h = 1; h <= maxHeight; h++) {
      const from = start[h]!;
      const count = start[h + 1]! - from;
      if (count === 0) continue;
      const pairs = this.#scratchFor(count * 64);
      const words = this.#scratchWords;
      const hashWords = this.#hashWords;
      for (let j = 0; j < count; j++) {
        const k = order[from + j]!;
        copy8(hashWords, this.#nodeLeft[k]! << 3, words, j << 4);
        copy8(hashWords, this.#nodeRight[k]! << 3, words, (j << 4) + 8);
      }
      hasher.hash64Batch(pairs, 0, count, pairs, 0);
      for (let j = 0; j < count; j++)
        copy8(words, j << 3, hashWords, nodeSlot[order[from + j]!]! << 3);
    }
  }

  /** True when slot holds exactly the 32 bytes of `expected`. */
  equals(slot: number, expected: Uint8Array): boolean {
    const hashes = this.#hashes;
    const at = slot << 5;
    let diff = 0;
    for (let b = 0; b < 32; b++) diff |= hashes[at + b]! ^ expected[b]!;
    return diff === 0;
  }

  #allocSlot(height: number): number {
    const slot = this.#slots++;
    if (slot === this.#height.length) {
      this.#height = grow(this.#height);
      const next = new Uint8Array(this.#hashes.length * 2);
      next.set(this.#hashes);
      this.#hashes = next;
      this.#hashWords = new Int32Array(next.buffer);
    }
    this.#height[slot] = height;
    return slot;
  }

  #scratchFor(bytes: number): Uint8Array {
    if (this.#scratch.length < bytes) {
      let size = this.#scratch.length * 2;
      while (size < bytes) size *= 2;
      this.#scratch = new Uint8Array(size);
      this.#scratchWords = new Int32Array(this.#scratch.buffer);
    }
    return this.#scratch;
  }
}

function grow<T extends Int32Array | Uint16Array>(array: T): T {
  const next = new (array.constructor as new (n: number) => T)(array.length * 2);
  next.set(array);
  return next;
}

function copy8(from: Int32Array, fromWord: number, to: Int32Array, toWord: number): void {
  for (let w = 0; w < 8; w++) to[toWord + w] = from[fromWord + w]!;
}
