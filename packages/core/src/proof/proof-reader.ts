import { bytesToHex } from "../bytes/hex.js";
import { type HashPlan, ZERO_SLOT } from "./hash-plan.js";
import { indexWidth, splitOnStemBit, splitOnSubindexBit, stemEquals } from "./key-ranges.js";
import { ProofError } from "./proof-error.js";
import { MAX_INTERNAL_DEPTH, STEM_LEVELS } from "./proof-format.js";

/** What a parsed child is, for the shape rules of a canonical tree. */
const CHILD_EMPTY = 0;
const CHILD_INTERNAL = 1;
const CHILD_STEM = 2;
/** A sibling given only by its (non-zero) hash: any kind but empty. */
const CHILD_OPAQUE = 3;

/** Result of a key: the offset of its value in the proof, or ABSENT. */
export const ABSENT = -1;

/**
 * Reads the shape bits and data bytes of a proof while walking the sorted keys down the tree
 * they describe (the mirror image of the prover's walk), records the node graph in a
 * {@link HashPlan}, and records each key's answer. Every check that needs no hashing happens
 * here; the root comparison happens after the plan is evaluated.
 */
export class ProofReader {
  readonly #source: Uint8Array;
  readonly #keys: readonly Uint8Array[];
  readonly #plan: HashPlan;
  /** Per sorted key: offset of its value in the source, or ABSENT. */
  readonly results: Int32Array;
  #bit: number;
  readonly #bitStart: number;
  readonly #bitEnd: number;
  #data: number;
  readonly #dataEnd: number;
  #kind = CHILD_EMPTY;

  constructor(
    source: Uint8Array,
    shapeStart: number,
    shapeBytes: number,
    keys: readonly Uint8Array[],
    plan: HashPlan,
  ) {
    this.#source = source;
    this.#keys = keys;
    this.#plan = plan;
    this.results = new Int32Array(keys.length).fill(ABSENT);
    this.#bit = shapeStart * 8;
    this.#bitStart = this.#bit;
    this.#bitEnd = (shapeStart + shapeBytes) * 8;
    this.#data = shapeStart + shapeBytes;
    this.#dataEnd = source.length;
  }

  /** Parses the whole proof; returns the root's slot. */
  readRoot(): number {
    const slot = this.#node(0, 0, this.#keys.length);
    this.#finish();
    return slot;
  }

  /** A main-tree node at `depth` reached by keys [lo, hi). Sets #kind. */
  #node(depth: number, lo: number, hi: number): number {
    if (this.#readBit() === 0) return this.#internal(depth, lo, hi);
    if (this.#readBit() === 1) {
      this.#kind = CHILD_EMPTY;
      return ZERO_SLOT; // every key here is absent
    }
    const slot = this.#stem(depth, lo, hi);
    this.#kind = CHILD_STEM;
    return slot;
  }

  #internal(depth: number, lo: number, hi: number): number {
    if (depth > MAX_INTERNAL_DEPTH) {
      throw new ProofError(
        "NON_CANONICAL",
        `internal node at depth ${depth}: stems have 248 bits, so internal nodes end at depth ${MAX_INTERNAL_DEPTH}`,
      );
    }
    const keys = this.#keys;
    const mid = splitOnStemBit(keys, lo, hi, depth);
    let left: number;
    let leftKind: number;
    if (mid > lo) {
      left = this.#node(depth + 1, lo, mid);
      leftKind = this.#kind;
    } else {
      const at = this.#data;
      left = this.#sibling();
      leftKind = left === ZERO_SLOT ? CHILD_EMPTY : CHILD_OPAQUE;
      if (leftKind === CHILD_OPAQUE) this.#checkNotStemHalf(at, depth, mid, hi);
    }
    let right: number;
    let rightKind: number;
    if (hi > mid) {
      right = this.#node(depth + 1, mid, hi);
      rightKind = this.#kind;
    } else {
      right = this.#sibling();
      rightKind = right === ZERO_SLOT ? CHILD_EMPTY : CHILD_OPAQUE;
    }
    // A canonical tree never keeps an internal node over fewer than two stems.
    if (
      (leftKind === CHILD_EMPTY && (rightKind === CHILD_EMPTY || rightKind === CHILD_STEM)) ||
      (rightKind === CHILD_EMPTY && leftKind === CHILD_STEM)
    ) {
      throw new ProofError(
        "NON_CANONICAL",
        `internal node at depth ${depth} on the path of key ${bytesToHex(keys[lo]!)} has fewer than two stems below it`,
      );
    }
    this.#kind = CHILD_INTERNAL;
    return this.#plan.node(left, right);
  }

  /**
   * EIP-7864 hashes a stem as H(stem || 0x00 || R) and an internal node as H(left || right):
   * a stem can be passed off as an internal node whose left child "hash" is stem || 0x00, and
   * its value subtree as the right child, to claim a present key absent. The only such left
   * half that could hide a key's value is that key's own stem followed by 0x00: refuse it.
   */
  #checkNotStemHalf(at: number, depth: number, lo: number, hi: number): void {
    const source = this.#source;
    if (source[at + 31] !== 0) return;
    const keys = this.#keys;
    for (let i = lo; i < hi; i++) {
      if (stemEquals(keys[i]!, source, at)) {
        throw new ProofError(
          "AMBIGUOUS_NODE",
          `the left sibling at depth ${depth} is the stem of key ${bytesToHex(keys[i]!)} followed by 0x00: a stem node presented as an internal node`,
        );
      }
    }
  }

  /** A sibling: 1 = empty, 0 = a 32-byte non-zero hash follows in the data. */
  #sibling(): number {
    if (this.#readBit() === 1) return ZERO_SLOT;
    const at = this.#take(32);
    const source = this.#source;
    let any = 0;
    for (let b = 0; b < 32; b++) any |= source[at + b]!;
    if (any === 0) {
      throw new ProofError(
        "NON_CANONICAL",
        `zero hash at data offset ${at} written as a hash (an empty sibling is one bit)`,
      );
    }
    return this.#plan.literal(at);
  }

  /** A stem node at `depth` reached by keys [lo, hi). */
  #stem(depth: number, lo: number, hi: number): number {
    const keys = this.#keys;
    const plan = this.#plan;
    if (this.#readBit() === 1) {
      // The stem of one of the keys here: which one, among their distinct stems.
      let distinct = 0;
      for (let i = lo; i < hi; i++)
        if (i === lo || !stemEquals(keys[i]!, keys[i - 1]!, 0)) distinct++;
      const choice = this.#readBits(indexWidth(distinct));
      if (choice >= distinct) {
        throw new ProofError(
          "MALFORMED",
          `stem choice ${choice} at depth ${depth}, but only ${distinct} distinct stems reach it`,
        );
      }
      let matchLo = lo;
      for (let seen = 0, i = lo; i < hi; i++) {
        if (i > lo && !stemEquals(keys[i]!, keys[i - 1]!, 0)) seen++;
        if (seen === choice) {
          matchLo = i;
          break;
        }
      }
      let matchHi = matchLo + 1;
      while (matchHi < hi && stemEquals(keys[matchHi]!, keys[matchLo]!, 0)) matchHi++;
      const stemSlot = plan.stemLiteral(keys[matchLo]!, 0);
      const subtree = this.#stemSubtree(0, matchLo, matchHi);
      return plan.node(stemSlot, subtree);
    }
    // Another stem: every key here is absent.
    const at = this.#take(31);
    this.#checkOnPath(at, depth, lo);
    for (let i = lo; i < hi; i++) {
      if (stemEquals(keys[i]!, this.#source, at)) {
        throw new ProofError(
          "NON_CANONICAL",
          `the stem at depth ${depth} is the stem of key ${bytesToHex(keys[i]!)} but is written as another stem`,
        );
      }
    }
    const stemSlot = plan.stemLiteral(this.#source, at);
    const lowest = this.#source[this.#take(1)]!;
    return plan.node(stemSlot, this.#lowestPath(0, lowest));
  }

  /** The first `depth` bits of the stem at source[at..] must be the path that led here. */
  #checkOnPath(at: number, depth: number, lo: number): void {
    const key = this.#keys[lo]!;
    const source = this.#source;
    const whole = depth >>> 3;
    let differs = false;
    for (let i = 0; i < whole && !differs; i++) differs = source[at + i] !== key[i];
    const rest = depth & 7;
    if (!differs && rest !== 0) {
      const mask = (0xff00 >>> rest) & 0xff;
      differs = ((source[at + whole]! ^ key[whole]!) & mask) !== 0;
    }
    if (differs) {
      throw new ProofError(
        "STEM_OFF_PATH",
        `the stem at data offset ${at} sits at depth ${depth} but its first ${depth} bits differ from the path of key ${bytesToHex(key)}`,
      );
    }
  }

  /**
   * Node (level, ·) of a matched stem's value subtree for keys [lo, hi) (same stem). Leaves:
   * 1 = present + 32-byte value, 0 = absent. Inner nodes: 1 = zero subtree, 0 = children follow.
   */
  #stemSubtree(level: number, lo: number, hi: number): number {
    const results = this.results;
    if (level === STEM_LEVELS) {
      if (this.#readBit() === 0) return ZERO_SLOT;
      const at = this.#take(32);
      results[lo] = at; // distinct keys with one stem and one subindex: exactly one key
      return this.#plan.leaf(at);
    }
    if (this.#readBit() === 1) return ZERO_SLOT;
    const mid = splitOnSubindexBit(this.#keys, lo, hi, level);
    const left = mid > lo ? this.#stemSubtree(level + 1, lo, mid) : this.#sibling();
    const right = hi > mid ? this.#stemSubtree(level + 1, mid, hi) : this.#sibling();
    if (left === ZERO_SLOT && right === ZERO_SLOT) {
      throw new ProofError(
        "NON_CANONICAL",
        `stem subtree node at level ${level} for key ${bytesToHex(this.#keys[lo]!)} has two zero children (a zero subtree is one bit)`,
      );
    }
    return this.#plan.node(left, right);
  }

  /**
   * The path to the lowest present value of another stem: evidence that it is a stem (a value
   * leaf exactly 8 levels down) and, with every left sibling zero, which value is the lowest.
   */
  #lowestPath(level: number, sub: number): number {
    if (level === STEM_LEVELS) return this.#plan.leaf(this.#take(32));
    if (((sub >>> (7 - level)) & 1) === 0) {
      const left = this.#lowestPath(level + 1, sub);
      return this.#plan.node(left, this.#sibling());
    }
    return this.#plan.node(ZERO_SLOT, this.#lowestPath(level + 1, sub));
  }

  #readBit(): number {
    const bit = this.#bit;
    if (bit >= this.#bitEnd) {
      throw new ProofError(
        "TRUNCATED",
        `the shape bits end (${this.#bitEnd - this.#bitStart} bits) before the structure does`,
      );
    }
    this.#bit = bit + 1;
    return (this.#source[bit >>> 3]! >>> (7 - (bit & 7))) & 1;
  }

  #readBits(width: number): number {
    let value = 0;
    for (let i = 0; i < width; i++) value = (value << 1) | this.#readBit();
    return value >>> 0;
  }

  /** Consumes n data bytes; returns their offset in the source. */
  #take(n: number): number {
    const at = this.#data;
    if (at + n > this.#dataEnd) {
      throw new ProofError(
        "TRUNCATED",
        `the proof needs ${n} more data bytes at offset ${at} but has ${this.#dataEnd - at}`,
      );
    }
    this.#data = at + n;
    return at;
  }

  /** Nothing may follow the structure: no data bytes, no bits beyond zero padding. */
  #finish(): void {
    if (this.#data !== this.#dataEnd) {
      throw new ProofError(
        "TRAILING_DATA",
        `${this.#dataEnd - this.#data} data bytes left after the structure ends (offset ${this.#data})`,
      );
    }
    const leftover = this.#bitEnd - this.#bit;
    if (leftover >= 8) {
      throw new ProofError("TRAILING_DATA", `${leftover} shape bits left after the structure ends`);
    }
    for (let bit = this.#bit; bit < this.#bitEnd; bit++) {
      if (((this.#source[bit >>> 3]! >>> (7 - (bit & 7))) & 1) !== 0) {
        throw new ProofError(
          "TRAILING_DATA",
          "the padding bits of the last shape byte are not zero",
        );
      }
    }
  }
}
