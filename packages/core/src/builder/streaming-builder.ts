import {
  assertKnownOptions,
  describeValue,
  MAX_GROUP_DEPTH,
  NODE_KEY_PREFIX,
} from "@bintrie/codec";
import { describeBytes } from "../bytes/describe-bytes.js";
import { bytesToHex } from "../bytes/hex.js";
import {
  DEFAULT_KEY_SCHEME,
  hashFunctionOfScheme,
  type KeyScheme,
} from "../embedding/key-scheme.js";
import { getHasher } from "../hash/get-hasher.js";
import type { Hasher } from "../hash/hasher.js";
import { optionKeys } from "../options/known-options.js";
import { DEFAULT_GROUP_DEPTH } from "../tree/binary-tree.js";
import type { NodeWrite } from "../tree/node-set.js";
import { BuilderError } from "./builder-error.js";
import { ByteSlab } from "./byte-slab.js";
import { EMPTY_SLOT, HashSlots, RESIDENT_SLOTS } from "./hash-slots.js";
import { NodeEmitter, type RecordCallback, type RecordTarget } from "./node-emitter.js";
import { NodeOpLog } from "./node-op-log.js";
import { StemBatch } from "./stem-batch.js";
import { assertStemBlob } from "./stem-blob-check.js";
import { StemSpine } from "./stem-spine.js";

/** Stems hashed together by default: enough to amortize each batch call, small in memory. */
export const DEFAULT_STEM_BATCH_SIZE = 1024;
/** Logged nodes after which the log is hashed and replayed even inside a batch (deep chains). */
const LOG_LIMIT = 1 << 16;
const STEM_BLOB_HEADER = 64;

export interface StreamingBuilderOptions {
  /** Internal nodes per stored group blob: 0 = flat 65-byte nodes, 1..8 = groups. Default 5. */
  readonly groupDepth?: number;
  /** Selects the node hash function (sha256 or blake3). Default 'sha256-be' (go-ethereum). */
  readonly scheme?: KeyScheme;
  /** Overrides the node hasher (e.g. a faster SHA-256 kernel); must match the scheme. */
  readonly hasher?: Hasher;
  /** Completed stems hashed per batch call (1..65536). Default 1024. */
  readonly stemBatchSize?: number;
  /**
   * Receives every node record as soon as it is complete: children before parents (the order
   * of the tree's commit), each path exactly once. The records are new arrays the receiver owns.
   * Give either `onNode` or `onRecord`.
   */
  readonly onNode?: (node: NodeWrite) => void;
  /**
   * Instead of `onNode`: receives each record as its store key (`keyPrefix` ‖ path key) and
   * blob, in the same order, without the path and hash copies a store write does not need.
   * Both arrays are views the receiver owns (no other record shares their bytes). The node's hash
   * is `hashes[hashAt, hashAt + 32)`, readable during the call only.
   */
  readonly onRecord?: RecordCallback;
  /** Prefix of the keys given to `onRecord`. Default "vA" (go-ethereum's pathdb layout). */
  readonly keyPrefix?: Uint8Array;
}

const STREAMING_BUILDER_OPTION_KEYS = optionKeys<StreamingBuilderOptions>()([
  "groupDepth",
  "scheme",
  "hasher",
  "stemBatchSize",
  "onNode",
  "onRecord",
  "keyPrefix",
]);

/**
 * Builds a tree from stems given in strictly increasing order and emits its node records, the
 * same records a BinaryTree commit of the same content produces, in the same order. Memory is
 * O(tree depth) plus one batch of stems, whatever the number of stems.
 *
 * Input is either whole stems (`addStem`) or key/value entries in increasing key order
 * (`addEntry`, consecutive keys of one stem are grouped into one stem), freely mixed.
 *
 * @example
 * ```ts
 * import { StreamingBuilder } from "@bintrie/core/builder";
 *
 * const nodes: Uint8Array[] = [];
 * const builder = new StreamingBuilder({ onNode: (node) => nodes.push(node.blob) });
 * builder.addEntry(new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)); // keys in increasing order
 * const root = builder.finish(); // the root a BinaryTree with the same entries has
 * ```
 */
export class StreamingBuilder {
  readonly groupDepth: number;
  readonly scheme: KeyScheme;
  readonly hasher: Hasher;
  readonly #slots = new HashSlots();
  readonly #log = new NodeOpLog();
  readonly #spine: StemSpine;
  readonly #emitter: NodeEmitter;
  readonly #batch: StemBatch;
  readonly #slab = new ByteSlab();
  #stems = 0;
  #state: "open" | "finished" | "failed" = "open";
  #failure: unknown;
  readonly #lastStem = new Uint8Array(31);
  #hasLast = false;
  // The stem being assembled from entries; it closes when an entry of another stem arrives.
  #entryOpen = false;
  readonly #openStem = new Uint8Array(31);
  readonly #openBitmap = new Uint8Array(32);
  readonly #openValues = new Uint8Array(256 * 32);
  #openCount = 0;
  #openLastSub = -1;

  constructor(options: StreamingBuilderOptions) {
    if (options === undefined) {
      throw new BuilderError(
        "INVALID_OPTION",
        "StreamingBuilder: options are required (give onNode or onRecord)",
      );
    }
    assertKnownOptions(options, STREAMING_BUILDER_OPTION_KEYS, "StreamingBuilder", BuilderError);
    const target = recordTarget(options);
    this.scheme = options.scheme ?? DEFAULT_KEY_SCHEME;
    const hashName = hashFunctionOfScheme(this.scheme);
    this.hasher = options.hasher ?? getHasher(hashName);
    if (this.hasher.name !== hashName) {
      throw new BuilderError(
        "INVALID_OPTION",
        `hasher '${this.hasher.name}' does not match key scheme '${this.scheme}'`,
      );
    }
    const groupDepth = options.groupDepth ?? DEFAULT_GROUP_DEPTH;
    if (!Number.isInteger(groupDepth) || groupDepth < 0 || groupDepth > MAX_GROUP_DEPTH) {
      throw new BuilderError(
        "INVALID_OPTION",
        `group depth must be an integer 0..${MAX_GROUP_DEPTH}, got ${String(groupDepth)}`,
      );
    }
    this.groupDepth = groupDepth;
    const batchSize = options.stemBatchSize ?? DEFAULT_STEM_BATCH_SIZE;
    assertStemBatchSize(batchSize);
    this.#batch = new StemBatch(batchSize, Math.max(256, batchSize * 8));
    this.#spine = new StemSpine(this.#log);
    this.#emitter = new NodeEmitter(groupDepth, this.#slots, target, this.#slab);
  }

  /** Stems added so far (an entry stem counts once it is closed by the next stem or finish). */
  get stemCount(): number {
    return this.#stems;
  }

  /** Node records emitted so far. */
  get nodeCount(): number {
    return this.#emitter.count;
  }

  /**
   * Adds one value (32-byte key, 32-byte value). Keys must strictly increase; consecutive keys
   * with the same 31-byte stem form one stem.
   */
  addEntry(key: Uint8Array, value: Uint8Array): void {
    this.#assertOpen();
    if (!(key instanceof Uint8Array) || key.length !== 32) {
      throw new BuilderError("INVALID_KEY", `expected a 32-byte key, got ${describeBytes(key)}`);
    }
    assertValue(value, key);
    const sub = key[31]!;
    if (this.#entryOpen) {
      const order = compareStem(key, this.#openStem);
      if (order === 0 && sub > this.#openLastSub) {
        this.#appendValue(sub, value);
        return;
      }
      if (order === 0 && sub === this.#openLastSub) {
        throw new BuilderError(
          "DUPLICATE_KEY",
          `duplicate key ${bytesToHex(key)}: it was already added`,
        );
      }
      if (order <= 0) {
        throw new BuilderError(
          "KEY_OUT_OF_ORDER",
          `key ${bytesToHex(key)} does not follow the previous key ${bytesToHex(this.#previousKey())} (keys must strictly increase)`,
        );
      }
      this.#run(() => this.#closeEntryStem());
    } else {
      this.#assertAfterLast(key, "key");
    }
    this.#entryOpen = true;
    this.#openStem.set(key.subarray(0, 31));
    this.#appendValue(sub, value);
  }

  /**
   * Adds the entry packed at `records[offset..offset+64)`: the 32-byte key, then the 32-byte
   * value (the bytes are copied). The same rules as addEntry; no view or object per entry, for
   * builds from one buffer of sorted records.
   */
  addEntryAt(records: Uint8Array, offset: number): void {
    if (
      !(records instanceof Uint8Array) ||
      !Number.isInteger(offset) ||
      offset < 0 ||
      offset + 64 > records.length
    ) {
      throw new BuilderError(
        "INVALID_INPUT",
        `addEntryAt: expected 64 bytes (key ‖ value) at offset ${String(offset)} of a Uint8Array, got ${describeBytes(records)}`,
      );
    }
    this.#assertOpen();
    const sub = records[offset + 31]!;
    if (this.#entryOpen) {
      if (sub > this.#openLastSub && compareStemAt(records, offset, this.#openStem) === 0) {
        this.#appendValueAt(sub, records, offset + 32);
        return;
      }
      if (compareStemAt(records, offset, this.#openStem) <= 0) {
        // Out of order or repeated: addEntry throws the error that names both keys.
        this.addEntry(
          records.subarray(offset, offset + 32),
          records.subarray(offset + 32, offset + 64),
        );
        return;
      }
      try {
        this.#closeEntryStem();
      } catch (error) {
        this.#fail(error);
      }
    } else {
      this.#assertAfterLast(records.subarray(offset, offset + 32), "key");
    }
    this.#entryOpen = true;
    const stem = this.#openStem;
    for (let i = 0; i < 31; i++) stem[i] = records[offset + i]!;
    this.#appendValueAt(sub, records, offset + 32);
  }

  /**
   * Adds a whole stem: slot i = subindex i, null/undefined = absent (at most 256 slots). Like
   * BinaryTree.putStem, a stem without values is still a node. Stems must strictly increase.
   */
  addStem(stem: Uint8Array, values: ReadonlyArray<Uint8Array | null | undefined>): void {
    this.#assertOpen();
    if (!(stem instanceof Uint8Array) || stem.length !== 31) {
      throw new BuilderError("INVALID_STEM", `expected a 31-byte stem, got ${describeBytes(stem)}`);
    }
    if (!Array.isArray(values) || values.length > 256) {
      throw new BuilderError(
        "INVALID_VALUE",
        `values of stem ${bytesToHex(stem)} must be an array of at most 256 slots, got ${Array.isArray(values) ? `${values.length} slots` : typeof values}`,
      );
    }
    let count = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v === null || v === undefined) continue;
      assertValue(v, stem);
      count++;
    }
    this.#closePendingEntryStem(stem);
    this.#assertAfterLast(stem, "stem");
    const blob = this.#slab.alloc(STEM_BLOB_HEADER + count * 32);
    blob[0] = 1;
    blob.set(stem, 1);
    let at = STEM_BLOB_HEADER;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v === null || v === undefined) continue;
      blob[32 + (i >>> 3)]! |= 0x80 >>> (i & 7);
      blob.set(v, at);
      at += 32;
    }
    this.#enqueue(blob, undefined);
  }

  /**
   * Adds a stem as a ready stem blob (01 ‖ stem ‖ bitmap ‖ values) with its hash computed
   * elsewhere, e.g. by a pool of hashing workers. The hash is trusted, not checked: a wrong one
   * gives a wrong root. The blob is emitted as given (do not mutate it afterwards).
   */
  addHashedStem(blob: Uint8Array, hash: Uint8Array): void {
    this.#assertOpen();
    assertStemBlob(blob);
    if (!(hash instanceof Uint8Array) || hash.length !== 32) {
      throw new BuilderError(
        "INVALID_VALUE",
        `stem hash for ${bytesToHex(blob.subarray(1, 32))} must be 32 bytes, got ${describeBytes(hash)}`,
      );
    }
    const stem = blob.subarray(1, 32);
    this.#closePendingEntryStem(stem);
    this.#assertAfterLast(stem, "stem");
    this.#enqueue(blob, hash);
  }

  /** Completes the tree: emits every remaining node (the root last) and returns the root hash. */
  finish(): Uint8Array {
    this.#assertOpen();
    return this.#run(() => {
      if (this.#entryOpen) this.#closeEntryStem();
      this.#flush();
      const log = this.#log;
      log.reset(RESIDENT_SLOTS);
      const root = this.#spine.finish();
      log.hashInternals(this.hasher, this.#slots);
      log.replay(this.#emitter);
      log.reset(RESIDENT_SLOTS);
      this.#state = "finished";
      return root === EMPTY_SLOT ? new Uint8Array(32) : this.#slots.take(root);
    });
  }

  /** The last key given to addEntry (the open stem and its last subindex). */
  #previousKey(): Uint8Array {
    const key = new Uint8Array(32);
    key.set(this.#openStem);
    key[31] = this.#openLastSub;
    return key;
  }

  #appendValue(sub: number, value: Uint8Array): void {
    this.#openValues.set(value, this.#openCount << 5);
    this.#openCount++;
    this.#openBitmap[sub >>> 3]! |= 0x80 >>> (sub & 7);
    this.#openLastSub = sub;
  }

  #appendValueAt(sub: number, src: Uint8Array, at: number): void {
    const values = this.#openValues;
    const to = this.#openCount << 5;
    for (let i = 0; i < 32; i++) values[to + i] = src[at + i]!;
    this.#openCount++;
    this.#openBitmap[sub >>> 3]! |= 0x80 >>> (sub & 7);
    this.#openLastSub = sub;
  }

  /** Before a stem from addStem/addHashedStem: close an entry stem, refusing the same stem. */
  #closePendingEntryStem(stem: Uint8Array): void {
    if (!this.#entryOpen) return;
    if (compareStem(stem, this.#openStem) <= 0) this.#assertAfterStem(stem, this.#openStem, "stem");
    this.#run(() => this.#closeEntryStem());
  }

  #closeEntryStem(): void {
    const count = this.#openCount;
    const size = STEM_BLOB_HEADER + (count << 5);
    const blob = this.#slab.alloc(size);
    blob[0] = 1;
    const stem = this.#openStem;
    for (let i = 0; i < 31; i++) blob[1 + i] = stem[i]!;
    const bitmap = this.#openBitmap;
    for (let i = 0; i < 32; i++) {
      blob[32 + i] = bitmap[i]!;
      bitmap[i] = 0;
    }
    const values = this.#openValues;
    for (let i = STEM_BLOB_HEADER; i < size; i++) blob[i] = values[i - STEM_BLOB_HEADER]!;
    this.#openCount = 0;
    this.#openLastSub = -1;
    this.#entryOpen = false;
    this.#enqueue(blob, undefined);
  }

  #enqueue(blob: Uint8Array, hash: Uint8Array | undefined): void {
    const last = this.#lastStem;
    for (let i = 0; i < 31; i++) last[i] = blob[1 + i]!;
    this.#hasLast = true;
    this.#batch.add(blob, hash);
    this.#stems++;
    if (this.#batch.full) this.#run(() => this.#flush());
  }

  /** Hashes the queued stems, places them on the spine and emits what they complete. */
  #flush(): void {
    const batch = this.#batch;
    const n = batch.count;
    if (n === 0) return;
    const slots = this.#slots;
    const log = this.#log;
    const outBase = RESIDENT_SLOTS + n;
    slots.ensure(outBase);
    batch.hashInto(this.hasher, slots, RESIDENT_SLOTS);
    log.reset(outBase);
    for (let i = 0; i < n; i++) {
      this.#spine.push(batch.blobs[i]!, RESIDENT_SLOTS + i);
      if (log.length >= LOG_LIMIT) this.#resolve(outBase);
    }
    this.#resolve(outBase);
    batch.clear();
  }

  /** Hashes the logged internal nodes, emits the logged records, frees per-batch slots. */
  #resolve(outBase: number): void {
    const log = this.#log;
    log.hashInternals(this.hasher, this.#slots);
    log.replay(this.#emitter);
    this.#spine.pin(this.#slots);
    log.reset(outBase);
  }

  #assertAfterLast(stemOrKey: Uint8Array, what: "stem" | "key"): void {
    if (!this.#hasLast) return;
    if (compareStem(stemOrKey, this.#lastStem) > 0) return;
    this.#assertAfterStem(stemOrKey, this.#lastStem, what);
  }

  /** Throws for `stemOrKey` not after `previous` (a 31-byte stem). */
  #assertAfterStem(stemOrKey: Uint8Array, previous: Uint8Array, what: "stem" | "key"): void {
    const order = compareStem(stemOrKey, previous);
    if (order > 0) return;
    const stem = bytesToHex(stemOrKey.subarray(0, 31));
    const prev = bytesToHex(previous);
    const input = what === "key" ? `key ${bytesToHex(stemOrKey)} (stem ${stem})` : `stem ${stem}`;
    if (order === 0) {
      throw new BuilderError(
        "DUPLICATE_STEM",
        `${input} repeats the previous stem ${prev}: each stem must be given once (group its values into one stem)`,
      );
    }
    throw new BuilderError(
      "STEM_OUT_OF_ORDER",
      `${input} is not greater than the previous stem ${prev} (stems must strictly increase)`,
    );
  }

  #assertOpen(): void {
    if (this.#state === "finished") {
      throw new BuilderError("BUILDER_FINISHED", "the builder is finished; create a new one");
    }
    if (this.#state === "failed") {
      throw new BuilderError(
        "BUILDER_FINISHED",
        "the builder stopped after an earlier failure (see cause); create a new one",
        { cause: this.#failure },
      );
    }
  }

  /** Runs a step that emits nodes; if it throws (e.g. the receiver did), the builder stops. */
  #run<T>(step: () => T): T {
    try {
      return step();
    } catch (error) {
      this.#fail(error);
    }
  }

  #fail(error: unknown): never {
    this.#state = "failed";
    this.#failure = error;
    throw error;
  }
}

/** Compares the 31-byte stem at bytes[offset..] with `stem`. */
function compareStemAt(bytes: Uint8Array, offset: number, stem: Uint8Array): number {
  for (let i = 0; i < 31; i++) {
    const d = bytes[offset + i]! - stem[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** The one record receiver of the options: onNode, or onRecord with its key prefix. */
/** The `stemBatchSize` option: 1..65536 stems per batch call. */
export function assertStemBatchSize(batchSize: unknown): void {
  if (!Number.isInteger(batchSize) || (batchSize as number) < 1 || (batchSize as number) > 65536) {
    throw new BuilderError(
      "INVALID_OPTION",
      `stemBatchSize must be an integer 1..65536, got ${describeValue(batchSize)}`,
    );
  }
}

function recordTarget(options: StreamingBuilderOptions): RecordTarget {
  const onNode = options?.onNode;
  const onRecord = options?.onRecord;
  if (typeof onRecord === "function" && onNode === undefined) {
    const keyPrefix = options.keyPrefix ?? NODE_KEY_PREFIX;
    if (!(keyPrefix instanceof Uint8Array)) {
      throw new BuilderError(
        "INVALID_OPTION",
        `keyPrefix must be a Uint8Array, got ${typeof keyPrefix}`,
      );
    }
    return { onRecord, keyPrefix: keyPrefix.slice() };
  }
  if (typeof onNode === "function" && onRecord === undefined) return { onNode };
  throw new BuilderError(
    "INVALID_OPTION",
    "StreamingBuilder: give exactly one of options.onNode and options.onRecord, a function",
  );
}

/** Compares the first 31 bytes (the stem) of two stems or keys. */
function compareStem(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < 31; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

function assertValue(value: Uint8Array, of: Uint8Array): void {
  if (!(value instanceof Uint8Array) || value.length !== 32) {
    throw new BuilderError(
      "INVALID_VALUE",
      `expected a 32-byte value for ${of.length === 31 ? "stem" : "key"} ${bytesToHex(of)}, got ${describeBytes(value)}`,
    );
  }
}
