import { describeValue } from "@bintrie/codec";
import type { DeletionMode } from "@bintrie/core";
import { invalidArgument, objectArgument, rawBytesArgument } from "./arguments.js";
import type { ConversionCursor } from "./conversion-cursor.js";
import { assertLayout, DEFAULT_STORE_LAYOUT, type StoreLayout } from "./store-layout.js";
import { TransitionError } from "./transition-error.js";

/** Running totals of a conversion (kept in the record so they survive a restart). */
export interface ConversionCounters {
  /** Base accounts whose header and code were moved. */
  readonly accounts: number;
  /** Base storage slots moved (or, for wiped accounts, resolved). */
  readonly storageSlots: number;
  /** Base code chunks moved. */
  readonly codeChunks: number;
  /** Leaves written into the overlay. */
  readonly leavesWritten: number;
  /** Base leaves not written because the overlay already had the key (or hid it). */
  readonly leavesKept: number;
}

/** What the transition keeps in the overlay root record's `extra` bytes. */
export interface TransitionRecord {
  readonly baseRoot: Uint8Array;
  readonly deletionMode: DeletionMode;
  readonly cursor: ConversionCursor;
  readonly counters: ConversionCounters;
  /**
   * Account marks created since the side tables were last cleared (an upper bound). Zero lets
   * conversion and reads skip the per-account mark lookup, the common case.
   */
  readonly markedAccounts: number;
  /**
   * The store layout the transition was created with (reopening with another is refused).
   * Undefined when decoded from a version-1 record, which did not keep it; encoded as the
   * default layout when absent.
   */
  readonly layout?: StoreLayout;
  /**
   * Every account converted so far has its "converted with base storage" side-table entry, so
   * deleting a converted account without base storage needs no base. False (the default) for
   * transitions whose conversion began before that index existed (version-1 records).
   */
  readonly baseStorageIndexed?: boolean;
}

export const ZERO_COUNTERS: ConversionCounters = {
  accounts: 0,
  storageSlots: 0,
  codeChunks: 0,
  leavesWritten: 0,
  leavesKept: 0,
};

const MAGIC = [0x42, 0x54, 0x54, 0x58]; // "BTTX"
// Version 2 appends a flags byte (bit 0: baseStorageIndexed) and the layout's three prefixes,
// each as length ‖ bytes. Version 1 records (without them) are still read.
const VERSION = 2;
const VERSION_1 = 1;
const PHASES = ["pending", "converting", "done"] as const;
const MODES: readonly DeletionMode[] = ["zero", "remove"];
const COUNTER_NAMES = [
  "accounts",
  "storageSlots",
  "codeChunks",
  "leavesWritten",
  "leavesKept",
] as const;
// magic, version, mode, base root, phase, account, slot state, slot, counters, marked accounts
const FIXED_SIZE = 4 + 1 + 1 + 32 + 1 + 32 + 1 + 32 + 8 * COUNTER_NAMES.length + 8;

/** Whether `extra` looks like a transition record (magic bytes), before a full decode. */
export function isTransitionRecord(extra: Uint8Array | undefined): boolean {
  if (extra === undefined || extra.length < 4) return false;
  for (let i = 0; i < 4; i++) if (extra[i] !== MAGIC[i]) return false;
  return true;
}

/**
 * @example
 * ```ts
 * import { decodeTransitionRecord, encodeTransitionRecord } from "@bintrie/transition";
 *
 * const bytes = encodeTransitionRecord({
 *   baseRoot: new Uint8Array(32),
 *   deletionMode: "zero",
 *   cursor: { phase: "pending" },
 *   counters: { accounts: 0, storageSlots: 0, codeChunks: 0, leavesWritten: 0, leavesKept: 0 },
 *   markedAccounts: 0,
 * });
 * decodeTransitionRecord(bytes).cursor.phase; // "pending"
 * ```
 */
export function encodeTransitionRecord(record: TransitionRecord): Uint8Array {
  checkRecord(record);
  const layout = record.layout ?? DEFAULT_STORE_LAYOUT;
  const prefixes = [layout.mptNodePrefix, layout.codePrefix, layout.sidePrefix];
  const out = new Uint8Array(FIXED_SIZE + 1 + prefixes.reduce((n, p) => n + 1 + p.length, 0));
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  out[4] = VERSION;
  out[5] = MODES.indexOf(record.deletionMode);
  out.set(record.baseRoot, 6);
  const c = record.cursor;
  out[38] = PHASES.indexOf(c.phase);
  if (c.phase === "converting") {
    out.set(c.account, 39);
    out[71] = c.storageDone ? 2 : c.lastSlot === undefined ? 0 : 1;
    if (c.lastSlot !== undefined) out.set(c.lastSlot, 72);
  }
  let at = 104;
  for (const name of COUNTER_NAMES) {
    view.setBigUint64(at, BigInt(record.counters[name]));
    at += 8;
  }
  view.setBigUint64(at, BigInt(record.markedAccounts));
  at += 8;
  out[at++] = record.baseStorageIndexed === true ? 1 : 0;
  for (const p of prefixes) {
    out[at++] = p.length;
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** INVALID_ARGUMENT naming the field unless `record` can be encoded as it is. */
function checkRecord(record: TransitionRecord): void {
  const what = "encodeTransitionRecord: record";
  objectArgument(what, record);
  rawBytesArgument(`${what}.baseRoot`, record.baseRoot, 32);
  if (!MODES.includes(record.deletionMode)) {
    throw invalidArgument(`${what}.deletionMode`, "'zero' or 'remove'", record.deletionMode);
  }
  const c = objectArgument<ConversionCursor>(`${what}.cursor`, record.cursor);
  if (!PHASES.includes(c.phase)) {
    throw invalidArgument(`${what}.cursor.phase`, "'pending', 'converting' or 'done'", c.phase);
  }
  if (c.phase === "converting") {
    rawBytesArgument(`${what}.cursor.account`, c.account, 32);
    if (c.lastSlot !== undefined) rawBytesArgument(`${what}.cursor.lastSlot`, c.lastSlot, 32);
    if (typeof c.storageDone !== "boolean") {
      throw invalidArgument(`${what}.cursor.storageDone`, "a boolean", c.storageDone);
    }
    if (c.storageDone && c.lastSlot !== undefined) {
      throw new TransitionError(
        "INVALID_ARGUMENT",
        `${what}.cursor: lastSlot must be undefined when storageDone is true (the record keeps one of them)`,
      );
    }
  }
  const counters = objectArgument<ConversionCounters>(`${what}.counters`, record.counters);
  for (const name of COUNTER_NAMES) checkCount(`${what}.counters.${name}`, counters[name]);
  checkCount(`${what}.markedAccounts`, record.markedAccounts);
  if (record.layout !== undefined) assertLayout(record.layout, []);
  if (record.baseStorageIndexed !== undefined && typeof record.baseStorageIndexed !== "boolean") {
    throw invalidArgument(`${what}.baseStorageIndexed`, "a boolean", record.baseStorageIndexed);
  }
}

function checkCount(what: string, value: unknown): void {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw invalidArgument(what, "a non-negative safe integer", value);
  }
}

/**
 * @example
 * ```ts
 * import { decodeTransitionRecord } from "@bintrie/transition";
 *
 * try {
 *   decodeTransitionRecord(Uint8Array.of(1, 2, 3));
 * } catch (error) {
 *   console.log((error as { code?: string }).code); // "INVALID_RECORD"
 * }
 * ```
 */
export function decodeTransitionRecord(bytes: Uint8Array): TransitionRecord {
  if (!(bytes instanceof Uint8Array)) {
    throw invalidArgument("decodeTransitionRecord: bytes", "a Uint8Array", bytes);
  }
  const bad = (why: string) =>
    new TransitionError("INVALID_RECORD", `transition record (${bytes.length} bytes): ${why}`);
  if (!isTransitionRecord(bytes)) throw bad("bad magic (expected 'BTTX')");
  const version = bytes[4];
  if (version !== VERSION && version !== VERSION_1) {
    throw bad(
      `version ${describeValue(version)} is not supported (reads ${VERSION_1} and ${VERSION})`,
    );
  }
  if (version === VERSION_1 ? bytes.length !== FIXED_SIZE : bytes.length < FIXED_SIZE + 1) {
    throw bad(`expected ${version === VERSION_1 ? FIXED_SIZE : `more than ${FIXED_SIZE}`} bytes`);
  }
  const deletionMode = MODES[bytes[5]!];
  if (deletionMode === undefined) throw bad(`unknown deletion mode id ${bytes[5]}`);
  const phase = PHASES[bytes[38]!];
  if (phase === undefined) throw bad(`unknown phase id ${bytes[38]}`);
  const slotState = bytes[71]!;
  if (slotState > 2) throw bad(`unknown slot state ${slotState}`);
  let cursor: ConversionCursor;
  if (phase === "converting") {
    cursor = {
      phase,
      account: bytes.slice(39, 71),
      lastSlot: slotState === 1 ? bytes.slice(72, 104) : undefined,
      storageDone: slotState === 2,
    };
  } else {
    cursor = { phase };
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const counters: Record<string, number> = {};
  let at = 104;
  for (const name of COUNTER_NAMES) {
    counters[name] = Number(view.getBigUint64(at));
    at += 8;
  }
  const markedAccounts = Number(view.getBigUint64(at));
  at += 8;
  let layout: StoreLayout | undefined;
  let baseStorageIndexed = phase === "pending"; // version 1: nothing converted without the index
  if (version === VERSION) {
    const flags = bytes[at++]!;
    if (flags > 1) throw bad(`unknown flags ${flags}`);
    baseStorageIndexed = flags === 1;
    const prefixes: Uint8Array[] = [];
    for (let i = 0; i < 3; i++) {
      const length = bytes[at++];
      if (length === undefined || length === 0 || at + length > bytes.length) {
        throw bad("truncated store layout");
      }
      prefixes.push(bytes.slice(at, at + length));
      at += length;
    }
    if (at !== bytes.length) throw bad(`${bytes.length - at} bytes after the store layout`);
    layout = { mptNodePrefix: prefixes[0]!, codePrefix: prefixes[1]!, sidePrefix: prefixes[2]! };
  }
  return {
    baseRoot: bytes.slice(6, 38),
    deletionMode,
    cursor,
    counters: counters as unknown as ConversionCounters,
    markedAccounts,
    layout,
    baseStorageIndexed,
  };
}
