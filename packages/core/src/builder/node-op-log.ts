import type { Hasher } from "../hash/hasher.js";
import { EMPTY_SLOT, type HashSlots } from "./hash-slots.js";

const OP_STEM = 0;
const OP_INTERNAL = 1;
/** Internal nodes hashed per batch call. */
const HASH_CHUNK = 4096;
/** Tallest possible chain of internal nodes above a stem (depths 0..247). */
const MAX_HEIGHT = 248;

/** Receives the logged nodes in post-order once their hashes are known. */
export interface NodeOpVisitor {
  stem(blob: Uint8Array, depth: number, slot: number): void;
  internal(depth: number, left: number, right: number, out: number, source: Uint8Array): void;
}

/**
 * The completed nodes of one stretch of input, in post-order (children before parents, left
 * before right: go-ethereum's commit order), with internal hashes still to compute. Logging
 * first lets all internal nodes of the stretch be hashed with one batch call per height, then
 * the log is replayed in order to serialize the nodes.
 */
export class NodeOpLog {
  #length = 0;
  #kinds = new Uint8Array(1024);
  #depths = new Uint8Array(1024);
  /** Stem op: its hash slot; internal op: its internal index. */
  #refs = new Int32Array(1024);
  /** A stem blob under the node: its first `depth` stem bits are the node's path. */
  readonly #sources: Uint8Array[] = [];
  #internals = 0;
  #left = new Int32Array(1024);
  #right = new Int32Array(1024);
  #heights = new Uint8Array(1024);
  #outBase = 0;
  readonly #levelCounts = new Uint32Array(MAX_HEIGHT + 2);
  #order = new Int32Array(1024);
  readonly #msg = new Uint8Array(HASH_CHUNK * 64);
  readonly #msg32 = new Uint32Array(this.#msg.buffer);
  readonly #digests = new Uint8Array(HASH_CHUNK * 32);
  readonly #digests32 = new Uint32Array(this.#digests.buffer);

  /** Logged nodes. */
  get length(): number {
    return this.#length;
  }

  /** First slot past everything logged, given internal results start at the out base. */
  get slotsEnd(): number {
    return this.#outBase + this.#internals;
  }

  /** Empties the log; internal results of the next stretch go to slots outBase, outBase+1, … */
  reset(outBase: number): void {
    this.#length = 0;
    this.#internals = 0;
    this.#outBase = outBase;
    this.#sources.length = 0;
  }

  stem(blob: Uint8Array, depth: number, slot: number): void {
    const k = this.#grow();
    this.#kinds[k] = OP_STEM;
    this.#depths[k] = depth;
    this.#refs[k] = slot;
    this.#sources[k] = blob;
  }

  /** Logs an internal node over two child slots (EMPTY_SLOT for none); returns its slot. */
  internal(depth: number, left: number, right: number, source: Uint8Array): number {
    const k = this.#grow();
    const i = this.#internals++;
    if (i === this.#left.length) {
      this.#left = growInt32(this.#left);
      this.#right = growInt32(this.#right);
      const heights = new Uint8Array(i * 2);
      heights.set(this.#heights);
      this.#heights = heights;
    }
    this.#kinds[k] = OP_INTERNAL;
    this.#depths[k] = depth;
    this.#refs[k] = i;
    this.#sources[k] = source;
    this.#left[i] = left;
    this.#right[i] = right;
    this.#heights[i] = 1 + Math.max(this.#heightOf(left), this.#heightOf(right));
    return this.#outBase + i;
  }

  /** Computes every logged internal hash: lowest height first, one batch call per height. */
  hashInternals(hasher: Hasher, slots: HashSlots): void {
    const n = this.#internals;
    if (n === 0) return;
    slots.ensure(this.#outBase + n);
    const heights = this.#heights;
    const counts = this.#levelCounts;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[heights[i]!]!++;
    let acc = 0;
    for (let h = 1; h <= MAX_HEIGHT; h++) {
      const c = counts[h]!;
      counts[h] = acc;
      acc += c;
    }
    if (this.#order.length < n) this.#order = new Int32Array(Math.max(n, this.#order.length * 2));
    const order = this.#order;
    for (let i = 0; i < n; i++) order[counts[heights[i]!]!++] = i;
    const msg = this.#msg;
    const msg32 = this.#msg32;
    const digests = this.#digests;
    const digests32 = this.#digests32;
    let start = 0;
    while (start < n) {
      const height = heights[order[start]!]!;
      let end = start;
      while (end < n && end - start < HASH_CHUNK && heights[order[end]!] === height) end++;
      for (let j = start; j < end; j++) {
        const i = order[j]!;
        const at = (j - start) << 4;
        slots.writeWords(this.#left[i]!, msg32, at);
        slots.writeWords(this.#right[i]!, msg32, at + 8);
      }
      hasher.hash64Batch(msg, 0, end - start, digests, 0);
      for (let j = start; j < end; j++)
        slots.readWords(this.#outBase + order[j]!, digests32, (j - start) << 3);
      start = end;
    }
  }

  /** Hands every logged node to `visitor`, in log order. Hashes must be computed. */
  replay(visitor: NodeOpVisitor): void {
    const n = this.#length;
    for (let k = 0; k < n; k++) {
      const ref = this.#refs[k]!;
      const source = this.#sources[k]!;
      if (this.#kinds[k] === OP_STEM) {
        visitor.stem(source, this.#depths[k]!, ref);
      } else {
        visitor.internal(
          this.#depths[k]!,
          this.#left[ref]!,
          this.#right[ref]!,
          this.#outBase + ref,
          source,
        );
      }
    }
  }

  #heightOf(slot: number): number {
    return slot === EMPTY_SLOT || slot < this.#outBase ? 0 : this.#heights[slot - this.#outBase]!;
  }

  #grow(): number {
    const k = this.#length++;
    if (k === this.#kinds.length) {
      const kinds = new Uint8Array(k * 2);
      kinds.set(this.#kinds);
      this.#kinds = kinds;
      const depths = new Uint8Array(k * 2);
      depths.set(this.#depths);
      this.#depths = depths;
      this.#refs = growInt32(this.#refs);
    }
    return k;
  }
}

function growInt32(array: Int32Array): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}
