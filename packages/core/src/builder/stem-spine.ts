import { DEFERRED_SLOT, EMPTY_SLOT, FRAME_SLOTS, type HashSlots } from "./hash-slots.js";
import type { NodeOpLog } from "./node-op-log.js";

/**
 * The tree structure of a sorted stem stream in O(depth) memory. It keeps the internal nodes on
 * the path to the last stem (the "right spine"), each with the hash slot of its completed left
 * subtree, and defers that stem until the next one arrives: a stem's depth is one more than the
 * longer of its common prefixes (in bits) with its two neighbours. When stem s arrives, the
 * previous stem and every spine node deeper than CPL(previous, s) are complete; they are logged
 * deepest first, which is post-order.
 */
export class StemSpine {
  readonly #log: NodeOpLog;
  /** Per spine depth: the slot of the completed left child, or EMPTY_SLOT. */
  readonly #left = new Int32Array(FRAME_SLOTS);
  /** The deferred stem (its blob) and the slot of its hash. */
  #last: Uint8Array | undefined;
  #lastSlot = 0;
  /** Common prefix bits of the deferred stem with the stem before it; -1 for the first stem. */
  #lastCpl = -1;

  constructor(log: NodeOpLog) {
    this.#log = log;
  }

  /** Adds the next stem (strictly greater than the previous one) with its hash in `slot`. */
  push(blob: Uint8Array, slot: number): void {
    const last = this.#last;
    if (last !== undefined) {
      const cpl = commonPrefixBits(last, blob);
      const child = this.#settle(cpl);
      // New spine nodes between the old spine end and the split are one-child chain nodes.
      for (let d = this.#lastCpl + 1; d < cpl; d++) this.#left[d] = EMPTY_SLOT;
      // At the split the previous stem's subtree is the left child; the new stem goes right.
      this.#left[cpl] = child;
      this.#lastCpl = cpl;
    }
    this.#last = blob;
    this.#lastSlot = slot;
  }

  /** Completes the tree; returns the root's slot, or EMPTY_SLOT when no stem was added. */
  finish(): number {
    if (this.#last === undefined) return EMPTY_SLOT;
    const root = this.#settle(-1);
    this.#last = undefined;
    this.#lastCpl = -1;
    return root;
  }

  /**
   * Moves the hashes the spine still needs into resident slots, so the per-batch slots can be
   * reused. Call after the log has been hashed and replayed.
   */
  pin(slots: HashSlots): void {
    if (this.#last === undefined) return;
    for (let d = 0; d <= this.#lastCpl; d++) {
      const slot = this.#left[d]!;
      // Anything but the frame's own resident slot, including the deferred-stem slot, which
      // is about to be reused for the new deferred stem.
      if (slot !== EMPTY_SLOT && slot !== d) {
        slots.copy(slot, d);
        this.#left[d] = d;
      }
    }
    if (this.#lastSlot !== DEFERRED_SLOT) {
      slots.copy(this.#lastSlot, DEFERRED_SLOT);
      this.#lastSlot = DEFERRED_SLOT;
    }
  }

  /**
   * Logs the deferred stem, now known to sit at depth max(lastCpl, nextCpl) + 1, and closes the
   * spine nodes below depth nextCpl + 1. Returns the slot of the completed subtree at depth
   * nextCpl + 1 (the root when nextCpl is -1).
   */
  #settle(nextCpl: number): number {
    const last = this.#last!;
    const log = this.#log;
    const depth = Math.max(this.#lastCpl, nextCpl) + 1;
    log.stem(last, depth, this.#lastSlot);
    let child = this.#lastSlot;
    for (let d = depth - 1; d > nextCpl; d--) {
      const bit = (last[1 + (d >>> 3)]! >>> (7 - (d & 7))) & 1;
      child =
        bit === 0
          ? log.internal(d, child, EMPTY_SLOT, last)
          : log.internal(d, this.#left[d]!, child, last);
    }
    return child;
  }
}

/** Common prefix length in bits of the stems in two stem blobs (bytes 1..31). */
function commonPrefixBits(a: Uint8Array, b: Uint8Array): number {
  for (let i = 1; i < 32; i++) {
    const x = a[i]! ^ b[i]!;
    if (x !== 0) return ((i - 1) << 3) + Math.clz32(x) - 24;
  }
  return 248;
}
