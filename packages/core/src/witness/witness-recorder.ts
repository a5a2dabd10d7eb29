import { encodePathKey } from "@bintrie/codec";
import type { KeyScheme } from "../embedding/key-scheme.js";
import { bytesToKeyString, compareBytes } from "../store/bytes-order.js";
import type { Arena } from "../tree/arena.js";
import {
  KIND_EMPTY,
  KIND_HASHED,
  KIND_INTERNAL,
  KIND_STEM,
  type NodeRef,
  refIndex,
  refKind,
} from "../tree/node-ref.js";
import { U32Stack } from "../tree/u32-stack.js";
import type { WalkRecorder } from "../tree/walk-recorder.js";
import { storedGroupBlob, storedStemBlob } from "./stored-blob.js";
import type { Witness, WitnessNode } from "./witness.js";

const MODE_READ = 0;
const MODE_WRITE = 1;
const MODE_REMOVE = 2;

/**
 * Records a witness: before each key walk changes anything, it walks the same key itself and
 * captures the stored blob (group blob at group roots, stem blob) of every pre-state node on
 * the way, once per path. Nodes the window created are never captured: a write that fills an
 * empty slot or splits a stem marks that path "fresh", and walks stop there. In 'remove' mode a
 * removal that empties its stem also captures the siblings its collapse inspects (a stem that
 * moves up, or the internal node that stops the collapse).
 *
 * Why this is exact: every change to a node goes through a walk over it, and a node is captured
 * at the first walk over it, so captured blobs are pre-state blobs; hashes were brought up to
 * date when recording began, and an unchanged node's cached hashes stay valid.
 */
export class WitnessRecorder implements WalkRecorder {
  readonly #arena: Arena;
  readonly #groupDepth: number;
  readonly #root: Uint8Array;
  readonly #scheme: KeyScheme;
  readonly #nodes = new Map<string, WitnessNode>();
  readonly #fresh = new Set<string>();
  readonly #path = new U32Stack(64);
  readonly #sides = new U32Stack(64);
  readonly #bits = new Uint8Array(32);

  constructor(arena: Arena, groupDepth: number, root: Uint8Array, scheme: KeyScheme) {
    this.#arena = arena;
    this.#groupDepth = groupDepth;
    this.#root = root;
    this.#scheme = scheme;
  }

  read(key: Uint8Array, ko: number): void {
    this.#walk(key, ko, MODE_READ);
  }

  write(key: Uint8Array, ko: number): void {
    this.#walk(key, ko, MODE_WRITE);
  }

  remove(key: Uint8Array): void {
    this.#walk(key, 0, MODE_REMOVE);
  }

  /** The witness so far: pre-state root and captured nodes in path-key order. */
  finish(): Witness {
    const nodes = [...this.#nodes.values()].sort((a, b) => compareBytes(a.path, b.path));
    return { root: this.#root, groupDepth: this.#groupDepth, scheme: this.#scheme, nodes };
  }

  #walk(key: Uint8Array, ko: number, mode: number): void {
    const arena = this.#arena;
    const { internals, stems } = arena;
    const g = this.#groupDepth;
    const bits = this.#bits;
    for (let i = 0; i < 31; i++) bits[i] = key[ko + i]!;
    bits[31] = 0;
    this.#path.clear();
    this.#sides.clear();
    let ref: NodeRef = arena.root;
    let depth = 0;
    for (;;) {
      if (this.#fresh.size > 0 && this.#fresh.has(pathString(bits, depth))) return;
      const kind = refKind(ref);
      const index = refIndex(ref);
      if (kind === KIND_INTERNAL) {
        if (g === 0 || depth % g === 0) this.#capture(ref, bits, depth);
        const bit = (bits[depth >>> 3]! >>> (7 - (depth & 7))) & 1;
        this.#path.push(index);
        this.#sides.push(bit);
        ref = internals.getChild(index, bit);
        depth++;
        continue;
      }
      if (kind === KIND_STEM) {
        this.#capture(ref, bits, depth);
        const matches = stems.matches(index, key, ko);
        // A split puts new nodes at this path; the stem's own blob is captured above.
        if (mode === MODE_WRITE && !matches) this.#fresh.add(pathString(bits, depth));
        if (
          mode === MODE_REMOVE &&
          matches &&
          stems.getCount(index) === 1 &&
          stems.has(index, key[31]!)
        ) {
          this.#captureCollapse();
        }
        return;
      }
      if (kind === KIND_EMPTY && mode === MODE_WRITE) this.#fresh.add(pathString(bits, depth));
      // Empty: nothing below. Hashed: not loaded yet; the walk is retried after the load.
      return;
    }
  }

  /**
   * Mirrors TreeWalker.removeKey's collapse of the just-walked path: captures the siblings it
   * inspects (a stem that moves up, the internal node that stops it) and marks the path the
   * moved stem lands on as fresh (that stem's pre-state blob is captured at its old path).
   */
  #captureCollapse(): void {
    const { internals } = this.#arena;
    const g = this.#groupDepth;
    const path = this.#path;
    const sides = this.#sides;
    const bits = new Uint8Array(this.#bits);
    let carrying = false;
    for (let j = path.length - 1; j >= 0; j--) {
      const node = path.data[j]!;
      const otherSide = sides.data[j]! ^ 1;
      const sibling = internals.getChild(node, otherSide);
      const kind = refKind(sibling);
      if (kind === KIND_EMPTY) continue;
      const depth = internals.getDepth(node) + 1;
      if (carrying) {
        // This node stays; the carried stem lands in its child slot on the walked side.
        this.#fresh.add(pathString(this.#bits, depth));
        return;
      }
      const mask = 0x80 >>> ((depth - 1) & 7);
      const at = (depth - 1) >>> 3;
      const saved = bits[at]!;
      bits[at] = otherSide === 1 ? saved | mask : saved & ~mask;
      const fresh = this.#fresh.size > 0 && this.#fresh.has(pathString(bits, depth));
      if (kind === KIND_INTERNAL) {
        if (!fresh && (g === 0 || depth % g === 0)) this.#capture(sibling, bits, depth);
        return;
      }
      if (kind === KIND_HASHED) return;
      if (!fresh) this.#capture(sibling, bits, depth);
      bits[at] = saved;
      carrying = true;
    }
    // The collapse reached the root: the carried stem becomes the root.
    if (carrying) this.#fresh.add(pathString(this.#bits, 0));
  }

  #capture(ref: NodeRef, bits: Uint8Array, depth: number): void {
    const path = encodePathKey(bits, depth);
    const id = bytesToKeyString(path);
    if (this.#nodes.has(id)) return;
    const index = refIndex(ref);
    const blob =
      refKind(ref) === KIND_STEM
        ? storedStemBlob(this.#arena, index)
        : storedGroupBlob(this.#arena, index, this.#groupDepth);
    this.#nodes.set(id, { path, blob });
  }
}

function pathString(bits: Uint8Array, depth: number): string {
  return bytesToKeyString(encodePathKey(bits, depth));
}
