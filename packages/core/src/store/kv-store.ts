/**
 * The storage contract every backend implements (memory, LevelDB, IndexedDB).
 *
 * Keys and values are raw bytes. The tree never assumes more than this: point reads, one
 * batched read per tree level, and atomic batches so a commit lands whole or not at all.
 */

/** One write inside an atomic batch. */
export type BatchOperation =
  | { readonly type: "put"; readonly key: Uint8Array; readonly value: Uint8Array }
  | { readonly type: "del"; readonly key: Uint8Array };

/** Words per put in {@link SpanPuts.spans}. */
export const SPAN_WORDS = 5;

/**
 * Puts whose keys and values are spans of a few byte chunks (a commit's packed node set), so a
 * batch of thousands of puts needs no operation object and no view per put. Put i has the key
 * `chunks[c][keyStart, keyEnd)` and the value `chunks[c][valueStart, valueEnd)`, where
 * `[c, keyStart, keyEnd, valueStart, valueEnd]` are the words `spans[5i .. 5i + 5)`.
 */
export interface SpanPuts {
  readonly chunks: readonly Uint8Array[];
  readonly spans: Uint32Array;
  readonly count: number;
}

/** A half-open key range [gte, lt) in byte-wise order; a missing bound is unbounded. */
export interface KeyRange {
  readonly gte?: Uint8Array;
  readonly lt?: Uint8Array;
}

export interface KVStore {
  /** The value stored under `key`, or `undefined` when there is none. */
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  /** Values for many keys in one round trip, in the order of `keys`. */
  getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]>;
  /** Applies every operation atomically: after a crash either all of them are visible or none. */
  batch(operations: readonly BatchOperation[]): Promise<void>;
  /** Releases the backend. Further calls reject with a StoreError('STORE_CLOSED'). */
  close(): Promise<void>;
  /**
   * Optional: entries in ascending byte-wise key order within `range` (for tools such as
   * `bintrie nodes`). Backends without ordered iteration leave it undefined.
   */
  entries?(range?: KeyRange): AsyncIterable<readonly [Uint8Array, Uint8Array]>;
  /**
   * Optional: puts `count` packed records atomically, like `batch` with only puts. Record i is
   * key ‖ value in `bytes`: the key ends at `ends[2i]`, the value at `ends[2i + 1]`, and the
   * record starts where the one before ended (the first at 0). Bulk writers (the builder) use it
   * where present: a backend that copies records one by one into a native batch (LevelDB) then
   * needs no operation object per record. Stores without it get `batch`.
   */
  batchPacked?(bytes: Uint8Array, ends: Uint32Array, count: number): Promise<void>;
  /**
   * Optional: `batch(operations)` with the puts of `puts` applied in their order just before
   * `operations[at]` (after all of them when `at` is `operations.length`), atomically like
   * `batch`. `persist()` writes its node set this way where present (no object per node);
   * stores without it get `batch`, and so does a store whose `batch` is not the one defined
   * beside its `batchWithSpans` (a subclass overriding `batch` alone sees every persist). The
   * store must not keep references to the chunks.
   */
  batchWithSpans?(operations: readonly BatchOperation[], puts: SpanPuts, at: number): Promise<void>;
}

/** Whether `x` has the calls every KVStore has (`get`, `getMany`, `batch`). */
export function isStore(x: unknown): x is KVStore {
  const s = x as Partial<KVStore> | null;
  return (
    typeof s === "object" &&
    s !== null &&
    typeof s.get === "function" &&
    typeof s.getMany === "function" &&
    typeof s.batch === "function"
  );
}
