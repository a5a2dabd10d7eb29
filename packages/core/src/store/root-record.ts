import { describeValue, MAX_GROUP_DEPTH } from "@bintrie/codec";
import { KEY_SCHEMES, type KeyScheme } from "../embedding/key-scheme.js";
import { StoreError } from "./store-error.js";

/**
 * The record a commit writes in the same atomic batch as its nodes: which root is the latest
 * committed one and how the tree was built, so a later open cannot silently mix formats.
 */
export interface RootRecord {
  readonly root: Uint8Array;
  readonly groupDepth: number;
  readonly scheme: KeyScheme;
  /** Opaque bytes an upper layer keeps with the root (e.g. a conversion cursor). */
  readonly extra?: Uint8Array;
}

/** Store key of the root record ("bintrie:root"); never a node key, which starts with "vA". */
export const ROOT_RECORD_KEY: Uint8Array = Uint8Array.from("bintrie:root", (c) => c.charCodeAt(0));

/** On-disk format version of the node blobs and this record. */
export const STORE_FORMAT_VERSION = 1;

const MAGIC = [0x42, 0x54, 0x52, 0x52]; // "BTRR"
const HEADER = 4 + 1 + 1 + 1 + 32 + 4;
/** The extra bytes' length is a u32 in the header. */
const MAX_EXTRA_LENGTH = 0xffff_ffff;

/**
 * The record's bytes: "BTRR", format version, group depth, scheme id (index in KEY_SCHEMES),
 * root (32), extra length (u32 BE), extra.
 *
 * Every field is checked first, so no record is written that {@link decodeRootRecord} would
 * refuse or read back differently: `record` must be an object with `root` a 32-byte Uint8Array,
 * `groupDepth` an integer in 0..8, `scheme` one of KEY_SCHEMES and `extra` undefined or a
 * Uint8Array of at most 2^32-1 bytes. Anything else is StoreError('INVALID_ROOT_RECORD') (the
 * decoder's code for a bad record) naming the field.
 *
 * @example
 * ```ts
 * import { decodeRootRecord, encodeRootRecord } from "@bintrie/core/store";
 *
 * const bytes = encodeRootRecord({ root: new Uint8Array(32), groupDepth: 5, scheme: "sha256-be" });
 * decodeRootRecord(bytes).groupDepth; // 5
 * ```
 */
export function encodeRootRecord(record: RootRecord): Uint8Array {
  assertRootRecord(record);
  const extra = record.extra ?? new Uint8Array(0);
  const out = new Uint8Array(HEADER + extra.length);
  out.set(MAGIC, 0);
  out[4] = STORE_FORMAT_VERSION;
  out[5] = record.groupDepth;
  out[6] = KEY_SCHEMES.indexOf(record.scheme);
  out.set(record.root, 7);
  new DataView(out.buffer).setUint32(39, extra.length);
  out.set(extra, HEADER);
  return out;
}

/**
 * The record in `bytes` (as {@link encodeRootRecord} writes them). Anything else, including a
 * value that is not a Uint8Array, is StoreError('INVALID_ROOT_RECORD') saying what is wrong.
 *
 * @example
 * ```ts
 * import { decodeRootRecord } from "@bintrie/core/store";
 *
 * try {
 *   decodeRootRecord(Uint8Array.of(1, 2, 3));
 * } catch (error) {
 *   console.log((error as { code?: string }).code); // "INVALID_ROOT_RECORD"
 * }
 * ```
 */
export function decodeRootRecord(bytes: Uint8Array): RootRecord {
  if (!(bytes instanceof Uint8Array)) {
    throw new StoreError(
      "INVALID_ROOT_RECORD",
      `root record: bytes must be a Uint8Array, got ${describeValue(bytes)}`,
    );
  }
  const bad = (why: string) =>
    new StoreError("INVALID_ROOT_RECORD", `root record (${bytes.length} bytes): ${why}`);
  if (bytes.length < HEADER) throw bad(`shorter than the ${HEADER}-byte header`);
  for (let i = 0; i < 4; i++) if (bytes[i] !== MAGIC[i]) throw bad("bad magic (expected 'BTRR')");
  if (bytes[4] !== STORE_FORMAT_VERSION) {
    throw bad(
      `format version ${bytes[4]} is not supported (this build reads ${STORE_FORMAT_VERSION})`,
    );
  }
  const groupDepth = bytes[5]!;
  if (groupDepth > MAX_GROUP_DEPTH) {
    throw bad(`group depth ${groupDepth} is out of range 0..${MAX_GROUP_DEPTH}`);
  }
  const scheme = KEY_SCHEMES[bytes[6]!];
  if (scheme === undefined) throw bad(`unknown key scheme id ${bytes[6]}`);
  const extraLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(39);
  if (bytes.length !== HEADER + extraLength)
    throw bad(`length does not match extra length ${extraLength}`);
  return {
    root: bytes.slice(7, 39),
    groupDepth,
    scheme,
    extra: bytes.slice(HEADER),
  };
}

/** The field checks of {@link encodeRootRecord}. */
function assertRootRecord(record: RootRecord): void {
  const bad = (why: string) => new StoreError("INVALID_ROOT_RECORD", `root record: ${why}`);
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    throw bad(
      `expected an object { root, groupDepth, scheme, extra? }, got ${describeValue(record)}`,
    );
  }
  const { root, groupDepth, scheme, extra } = record;
  if (!(root instanceof Uint8Array) || root.length !== 32) {
    throw bad(`root must be a 32-byte Uint8Array, got ${describeValue(root)}`);
  }
  if (!Number.isInteger(groupDepth) || groupDepth < 0 || groupDepth > MAX_GROUP_DEPTH) {
    throw bad(
      `groupDepth must be an integer in 0..${MAX_GROUP_DEPTH}, got ${describeValue(groupDepth)}`,
    );
  }
  if (!KEY_SCHEMES.includes(scheme)) {
    throw bad(
      `unknown scheme ${describeValue(scheme)} (expected one of ${KEY_SCHEMES.join(", ")})`,
    );
  }
  if (extra !== undefined && !(extra instanceof Uint8Array)) {
    throw bad(`extra must be a Uint8Array or undefined, got ${describeValue(extra)}`);
  }
  if (extra !== undefined && extra.length > MAX_EXTRA_LENGTH) {
    throw bad(`extra is ${extra.length} bytes, more than the format's ${MAX_EXTRA_LENGTH}`);
  }
}
