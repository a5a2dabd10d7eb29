import type { Arena } from "./arena.js";
import type { BinaryTree } from "./binary-tree.js";
import { describePath } from "./node-loader.js";
import {
  EMPTY_REF,
  KIND_EMPTY,
  KIND_HASHED,
  KIND_INTERNAL,
  KIND_STEM,
  refIndex,
  refKind,
} from "./node-ref.js";
import { TreeError } from "./tree-error.js";
import { U32Stack } from "./u32-stack.js";

/** Key range of `entries()`: `start` inclusive, `end` exclusive (32-byte keys). */
export interface EntryRange {
  readonly start?: Uint8Array;
  readonly end?: Uint8Array;
}

/** Placeholders loaded per store round by `entries()`. */
const PREFETCH_ROUTES = 64;
const SEEK_NONE = -1;
const SEEK_LOAD = -2;

/**
 * Finds the first stem ≥ a target stem: one descent along the target from the root, then (if
 * the target's own path ends below it) the leftmost stem of the nearest right sibling subtree.
 * When a placeholder is in the way it says so and leaves in `route` a key that leads to it.
 */
class StemSeeker {
  readonly route = new Uint8Array(32);
  missDepth = 0;
  readonly #arena: Arena;
  readonly #candidates = new U32Stack(64);
  readonly #candidateDepths = new U32Stack(64);

  constructor(arena: Arena) {
    this.#arena = arena;
  }

  seek(target: Uint8Array): number {
    const { internals, stems } = this.#arena;
    const candidates = this.#candidates;
    const depths = this.#candidateDepths;
    candidates.clear();
    depths.clear();
    let ref = this.#arena.root;
    let depth = 0;
    for (;;) {
      const kind = refKind(ref);
      const index = refIndex(ref);
      if (kind === KIND_INTERNAL) {
        depth = internals.getDepth(index);
        const bit = (target[depth >>> 3]! >>> (7 - (depth & 7))) & 1;
        if (bit === 0) {
          const right = internals.getRight(index);
          if (right !== EMPTY_REF) {
            candidates.push(right);
            depths.push(depth);
          }
        }
        ref = internals.getChild(index, bit);
        depth += 1;
        continue;
      }
      if (kind === KIND_STEM) {
        if (compareStem(stems.stemChunk(index), stems.stemOffset(index), target) >= 0) return index;
        break;
      }
      if (kind === KIND_HASHED) {
        this.route.set(target.subarray(0, 32));
        this.missDepth = depth;
        return SEEK_LOAD;
      }
      break;
    }
    while (candidates.length > 0) {
      const d = depths.pop();
      const route = this.route;
      route.fill(0);
      route.set(target.subarray(0, (d >>> 3) + 1));
      route[d >>> 3] = (route[d >>> 3]! & (0xff00 >>> (d & 7))) | (0x80 >>> (d & 7));
      const found = this.#leftmost(candidates.pop(), d + 1);
      if (found !== SEEK_NONE) return found;
    }
    return SEEK_NONE;
  }

  /** Leftmost stem below `ref` (at `depth`), building the route to it as it goes. */
  #leftmost(ref: number, depth: number): number {
    const { internals } = this.#arena;
    const route = this.route;
    for (;;) {
      const kind = refKind(ref);
      const index = refIndex(ref);
      if (kind === KIND_STEM) return index;
      if (kind === KIND_HASHED) {
        this.missDepth = depth;
        return SEEK_LOAD;
      }
      if (kind === KIND_EMPTY) return SEEK_NONE;
      const d = internals.getDepth(index);
      const left = internals.getLeft(index);
      if (left !== EMPTY_REF) {
        ref = left;
      } else {
        route[d >>> 3]! |= 0x80 >>> (d & 7);
        ref = internals.getRight(index);
      }
      depth = d + 1;
    }
  }
}

function compareStem(chunk: Uint8Array, offset: number, target: Uint8Array): number {
  for (let i = 0; i < 31; i++) {
    const d = chunk[offset + i]! - target[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** Adds one to the 31-byte stem in target[0..31); false when it wraps (no stem after it). */
function nextStem(target: Uint8Array): boolean {
  for (let i = 30; i >= 0; i--) {
    if (target[i] !== 0xff) {
      target[i]!++;
      return true;
    }
    target[i] = 0;
  }
  return false;
}

function assertRangeKey(name: string, key: Uint8Array | undefined): void {
  if (key !== undefined && (!(key instanceof Uint8Array) || key.length !== 32)) {
    throw new TreeError("INVALID_KEY", `entries: ${name} must be a 32-byte key`);
  }
}

/**
 * One walk over the tree in key order. Each step starts again from the root at the next stem
 * after the last one visited, so writes, loads and evictions between steps are all safe; values
 * are copied out of a stem before any of them is handed out.
 */
class EntryCursor {
  readonly #arena: () => Arena;
  readonly #seeker: StemSeeker;
  readonly #target = new Uint8Array(32);
  readonly #end: Uint8Array | undefined;
  #firstSub: number;
  #done = false;
  readonly #subs = new Uint16Array(256);
  readonly #probe = new Uint8Array(32);

  constructor(arena: () => Arena, range: EntryRange) {
    assertRangeKey("start", range.start);
    assertRangeKey("end", range.end);
    this.#arena = arena;
    this.#seeker = new StemSeeker(arena());
    if (range.start !== undefined) this.#target.set(range.start);
    this.#firstSub = range.start?.[31] ?? 0;
    this.#end = range.end?.slice();
  }

  /** True once the range is exhausted. */
  get done(): boolean {
    return this.#done;
  }

  get route(): Uint8Array {
    return this.#seeker.route;
  }

  get missDepth(): number {
    return this.#seeker.missDepth;
  }

  /**
   * After `step()` asked for a load: routes to that placeholder and to up to `limit - 1` more
   * after it in key order (skipping what is in memory), so one `load()` (one store round per
   * level) brings in the next stretch of the walk instead of one subtree.
   */
  pendingRoutes(limit: number): Uint8Array[] {
    const routes = [this.#seeker.route.slice()];
    const probe = this.#probe;
    let depth = this.#seeker.missDepth;
    probe.set(this.#seeker.route);
    for (let guard = 0; routes.length < limit && guard < limit * 4; guard++) {
      // Skip the subtree at the placeholder's path: all ones below it, then one more.
      for (let d = depth; d < 248; d++) probe[d >>> 3]! |= 0x80 >>> (d & 7);
      if (!nextStem(probe)) break;
      const end = this.#end;
      if (end !== undefined && compareStem(probe, 0, end) > 0) break;
      const found = this.#seeker.seek(probe);
      if (found === SEEK_NONE) break;
      if (found === SEEK_LOAD) {
        routes.push(this.#seeker.route.slice());
        depth = this.#seeker.missDepth;
        probe.set(this.#seeker.route);
        continue;
      }
      const { stems } = this.#arena();
      probe.set(
        stems.stemChunk(found).subarray(stems.stemOffset(found), stems.stemOffset(found) + 31),
      );
      depth = 248;
    }
    return routes;
  }

  /** The next stem's entries, [] when done, or undefined when a node must be loaded first. */
  step(): [Uint8Array, Uint8Array][] | undefined {
    if (this.#done) return [];
    const arena = this.#arena();
    const found = this.#seeker.seek(this.#target);
    if (found === SEEK_LOAD) return undefined;
    if (found === SEEK_NONE) {
      this.#done = true;
      return [];
    }
    const { stems } = arena;
    const chunk = stems.stemChunk(found);
    const offset = stems.stemOffset(found);
    const firstSub = compareStem(chunk, offset, this.#target) === 0 ? this.#firstSub : 0;
    let endSub = 256;
    const end = this.#end;
    if (end !== undefined) {
      const c = compareStem(chunk, offset, end);
      if (c > 0 || (c === 0 && end[31] === 0)) {
        this.#done = true;
        return [];
      }
      if (c === 0) endSub = end[31]!;
    }
    const out: [Uint8Array, Uint8Array][] = [];
    const n = stems.presentSubindices(found, this.#subs, 0);
    const page = stems.blockPage(found);
    const base = stems.blockOffset(found);
    for (let r = 0; r < n; r++) {
      const sub = this.#subs[r]!;
      if (sub < firstSub || sub >= endSub) continue;
      const key = new Uint8Array(32);
      key.set(chunk.subarray(offset, offset + 31));
      key[31] = sub;
      out.push([key, page.slice(base + (r << 5), base + (r << 5) + 32)]);
    }
    this.#target.set(chunk.subarray(offset, offset + 31));
    this.#firstSub = 0;
    if (endSub !== 256 || !nextStem(this.#target)) this.#done = true;
    return out;
  }
}

/** `tree.entriesSync()` (`arena` flushes pending writes and returns the tree's arena): in-memory trees; a node still in the store is TreeError('MISSING_NODE'). */
export function* entriesSync(
  arena: () => Arena,
  range: EntryRange = {},
): Generator<[Uint8Array, Uint8Array], void, undefined> {
  const cursor = new EntryCursor(arena, range);
  for (;;) {
    const batch = cursor.step();
    if (batch === undefined) {
      throw new TreeError(
        "MISSING_NODE",
        `entriesSync: node at path ${describePath(cursor.route, cursor.missDepth)} is not loaded; use entries() to load it from the store`,
      );
    }
    if (batch.length === 0 && cursor.done) return;
    yield* batch;
  }
}

/**
 * `tree.entries()`: loads placeholders it meets from the store (one `load()` per subtree) and,
 * under a memory bound, lets the tree's evictor run once per visited stem, so a walk over a tree
 * larger than memory stays within the bound.
 */
export async function* entries(
  tree: BinaryTree,
  arena: () => Arena,
  range: EntryRange = {},
): AsyncGenerator<[Uint8Array, Uint8Array], void, undefined> {
  const cursor = new EntryCursor(arena, range);
  // Under a memory bound, prefetch only a small part of it (a route can load a group and a stem).
  const prefetch = Math.max(
    1,
    Math.min(PREFETCH_ROUTES, Math.floor(tree.maxNodes / 64), Math.floor(tree.maxBytes / 65536)),
  );
  let mayEvict = false;
  for (;;) {
    const batch = cursor.step();
    if (batch === undefined) {
      if (mayEvict) {
        enforceBound(tree);
        mayEvict = false;
      }
      await tree.load(cursor.pendingRoutes(prefetch));
      continue;
    }
    mayEvict = true;
    if (batch.length === 0 && cursor.done) return;
    yield* batch;
  }
}

function enforceBound(tree: BinaryTree): void {
  // The tree's evictor is least-recently-used: what the walk just loaded and has not visited
  // yet was referenced by the load, so it stays.
  if (tree.maxNodes !== Number.POSITIVE_INFINITY || tree.maxBytes !== Number.POSITIVE_INFINITY) {
    tree.evict();
  }
}
