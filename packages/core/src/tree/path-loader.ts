import { encodePathKey, nodeDbKey } from "@bintrie/codec";
import type { KVStore } from "../store/kv-store.js";
import type { Arena } from "./arena.js";
import type { NodeLoader } from "./node-loader.js";
import { EMPTY_REF, KIND_HASHED, type NodeRef, refIndex, refKind } from "./node-ref.js";
import { TreeError } from "./tree-error.js";
import { LOOKUP_UNRESOLVED, type TreeWalker } from "./tree-walker.js";

/** One node to fetch: the hashed child `side` of internal node `parent`, at `depth`. */
interface LoadRequest {
  readonly parent: number;
  readonly side: number;
  readonly depth: number;
  readonly key: Uint8Array;
  /** The placeholder seen before the store read: only that one may be replaced. */
  readonly placeholder: NodeRef;
}

/**
 * Brings nodes in from the store along the paths of keys, one store round per tree level. It
 * runs only inside the tree's serial queue (never two at once), and after each store read it
 * replaces a placeholder only if the slot still holds the one it asked for: a synchronous write
 * made meanwhile can add nodes elsewhere but cannot touch a placeholder (it would throw
 * MISSING_NODE), and eviction stands back while the queue is busy.
 */
export class PathLoader {
  readonly #arena: Arena;
  readonly #walker: TreeWalker;
  readonly #loader: NodeLoader;
  readonly #keyPrefix: Uint8Array;

  constructor(arena: Arena, walker: TreeWalker, loader: NodeLoader, keyPrefix: Uint8Array) {
    this.#arena = arena;
    this.#walker = walker;
    this.#loader = loader;
    this.#keyPrefix = keyPrefix;
  }

  /** Loads every node on the paths of these keys or stems. */
  async load(store: () => KVStore, keys: readonly Uint8Array[]): Promise<void> {
    let pending: readonly Uint8Array[] = keys;
    while (pending.length > 0) pending = await this.#round(store, pending);
  }

  /** Replaces the empty tree with the stored tree whose root hash is `root`. */
  async openRoot(store: KVStore, root: Uint8Array): Promise<void> {
    if (!(root instanceof Uint8Array) || root.length !== 32) {
      throw new TreeError("INVALID_OPTION", "openRoot: root must be 32 bytes");
    }
    if (this.#arena.root !== EMPTY_REF) {
      throw new TreeError("INVALID_OPTION", "openRoot: the tree already has nodes");
    }
    const blob = await store.get(nodeDbKey(new Uint8Array(0), this.#keyPrefix));
    // Checked again after the await: a synchronous write may have started a tree meanwhile.
    if (this.#arena.root !== EMPTY_REF) {
      throw new TreeError("INVALID_OPTION", "openRoot: the tree got nodes while the root loaded");
    }
    this.#arena.root = this.#loader.load(blob, 0, new Uint8Array(32), root, 0);
  }

  /** One store round: finds the unresolved nodes blocking these keys and loads them. */
  async #round(store: () => KVStore, keys: readonly Uint8Array[]): Promise<Uint8Array[]> {
    const requests = this.#requests(keys);
    if (requests.size === 0) return [];
    const list = [...requests.values()];
    const blobs = await store().getMany(
      list.map((r) => nodeDbKey(encodePathKey(r.key, r.depth), this.#keyPrefix)),
    );
    const { internals, hashed } = this.#arena;
    for (let i = 0; i < list.length; i++) {
      const r = list[i]!;
      // parent < 0: the root itself is a placeholder (a tree opened from an empty witness).
      const current = r.parent < 0 ? this.#arena.root : internals.getChild(r.parent, r.side);
      if (current !== r.placeholder) continue;
      const h = refIndex(r.placeholder);
      const ref = this.#loader.load(
        blobs[i],
        r.depth,
        r.key,
        hashed.hashChunk(h),
        hashed.hashOffset(h),
      );
      if (r.parent < 0) this.#arena.root = ref;
      else internals.setChild(r.parent, r.side, ref);
      hashed.release(h);
    }
    return keys.filter((key) => this.#walker.lookup(key) === LOOKUP_UNRESOLVED);
  }

  /** The distinct placeholders blocking these keys, one request per slot. */
  #requests(keys: readonly Uint8Array[]): Map<number, LoadRequest> {
    const walker = this.#walker;
    const requests = new Map<number, LoadRequest>();
    for (const key of keys) {
      if (walker.lookup(key) !== LOOKUP_UNRESOLVED) continue;
      const slot = walker.missParent * 2 + walker.missSide;
      if (requests.has(slot)) continue;
      const placeholder =
        walker.missParent < 0
          ? this.#arena.root
          : this.#arena.internals.getChild(walker.missParent, walker.missSide);
      if (refKind(placeholder) !== KIND_HASHED) continue;
      requests.set(slot, {
        parent: walker.missParent,
        side: walker.missSide,
        depth: walker.missDepth,
        key,
        placeholder,
      });
    }
    return requests;
  }
}
