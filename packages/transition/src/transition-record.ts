import type { DeletionMode } from "@bintrie/core";
import type { ConversionCursor } from "./conversion-cursor.js";
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
}

export const ZERO_COUNTERS: ConversionCounters = {
  accounts: 0,
  storageSlots: 0,
  codeChunks: 0,
  leavesWritten: 0,
  leavesKept: 0,
};

const MAGIC = [0x42, 0x54, 0x54, 0x58]; // "BTTX"
const VERSION = 1;
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
const SIZE = 4 + 1 + 1 + 32 + 1 + 32 + 1 + 32 + 8 * COUNTER_NAMES.length + 8;

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
  const out = new Uint8Array(SIZE);
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
  return out;
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
  const bad = (why: string) =>
    new TransitionError("INVALID_RECORD", `transition record (${bytes.length} bytes): ${why}`);
  if (!isTransitionRecord(bytes)) throw bad("bad magic (expected 'BTTX')");
  if (bytes.length !== SIZE) throw bad(`expected ${SIZE} bytes`);
  if (bytes[4] !== VERSION) throw bad(`version ${bytes[4]} is not supported (reads ${VERSION})`);
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
  return {
    baseRoot: bytes.slice(6, 38),
    deletionMode,
    cursor,
    counters: counters as unknown as ConversionCounters,
    markedAccounts: Number(view.getBigUint64(at)),
  };
}
