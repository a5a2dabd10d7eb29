// Worker side of parseSecondHalf(): decodes the canonical lines of a byte range of the input
// file into shared records, and stops at the first line of any other form (the main thread
// reads from there with every rule, so errors and their line numbers are its own).
import { closeSync, openSync, readSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { CANONICAL_LENGTH, parseCanonical } from "./canonical-line.js";

/** What the worker is given. */
export interface HalfParseJob {
  readonly file: string;
  readonly start: number;
  readonly end: number;
  /** Room for the records (64 bytes each): one per canonical line the range can hold. */
  readonly records: SharedArrayBuffer;
}

/** What it answers: the records decoded, the lines they took, and where it stopped. */
export interface HalfParseResult {
  readonly count: number;
  readonly lines: number;
  /** File offset of the first line not decoded (the range's end when all were). */
  readonly stoppedAt: number;
}

const NEWLINE = 0x0a;
const LINE = CANONICAL_LENGTH + 1;
const READ_BYTES = 1 << 20;

function decodeRange({ file, start, end, records }: HalfParseJob): HalfParseResult {
  const out = new Uint8Array(records);
  const room = out.length >>> 6;
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    let count = 0;
    // File offset of buffer[0]; bytes [0, held) are a line carried over from the last read.
    let base = start;
    let held = 0;
    while (base + held < end) {
      const read = readSync(
        fd,
        buffer,
        held,
        Math.min(READ_BYTES - held, end - base - held),
        base + held,
      );
      if (read === 0) break;
      const filled = held + read;
      let at = 0;
      for (; at + LINE <= filled; at += LINE) {
        if (
          count === room ||
          buffer[at + CANONICAL_LENGTH] !== NEWLINE ||
          !parseCanonical(buffer, at, at + CANONICAL_LENGTH, out, count << 6)
        ) {
          return { count, lines: count, stoppedAt: base + at };
        }
        count++;
      }
      buffer.copyWithin(0, at, filled);
      base += at;
      held = filled - at;
    }
    return { count, lines: count, stoppedAt: base };
  } finally {
    closeSync(fd);
  }
}

parentPort?.postMessage(decodeRange(workerData as HalfParseJob));
