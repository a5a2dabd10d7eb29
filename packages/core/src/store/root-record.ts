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

/**
 * @example
 * ```ts
 * import { decodeRootRecord, encodeRootRecord } from "@bintrie/core/store";
 *
 * const bytes = encodeRootRecord({ root: new Uint8Array(32), groupDepth: 5, scheme: "sha256-be" });
 * decodeRootRecord(bytes).groupDepth; // 5
 * ```
 */
export function encodeRootRecord(record: RootRecord): Uint8Array {
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
  if (groupDepth > 8) throw bad(`group depth ${groupDepth} is out of range 0..8`);
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
