// Worker side of parseSecondHalf(): decodes the canonical lines of a byte range of the input
// file into shared records, and stops at the first line of any other form (the main thread
// reads from there with every rule, so errors and their line numbers are its own).
import { parentPort, workerData } from "node:worker_threads";
import {
  CANONICAL_LENGTH,
  CANONICAL_LINE_BYTES as LINE,
  parseCanonical,
} from "./canonical-line.js";
import { FILE_READ_BYTES, fileLineChunks, NEWLINE } from "./line-chunks.js";

/** What the worker is given. */
export interface HalfParseJob {
  readonly file: string;
  readonly start: number;
  readonly end: number;
  /** Room for the records (64 bytes each): one per canonical line the range can hold. */
  readonly records: SharedArrayBuffer;
}

/** What it answers: the records decoded (one per line: only canonical lines are), where it stopped. */
export interface HalfParseResult {
  readonly count: number;
  /** File offset of the first line not decoded (the range's end when all were). */
  readonly stoppedAt: number;
}

async function decodeRange({ file, start, end, records }: HalfParseJob): Promise<HalfParseResult> {
  const out = new Uint8Array(records);
  const room = out.length >>> 6;
  let count = 0;
  // Every decoded line is LINE bytes long, so the lines decoded say where decoding stopped.
  const stopped = () => ({ count, stoppedAt: start + count * LINE });
  for await (const chunk of fileLineChunks(file, { entries: 0 }, FILE_READ_BYTES, { start, end })) {
    const bytes = chunk.bytes;
    for (let at = chunk.start; at < chunk.end; at += LINE) {
      if (
        count === room ||
        at + LINE > chunk.end ||
        bytes[at + CANONICAL_LENGTH] !== NEWLINE ||
        !parseCanonical(bytes, at, at + CANONICAL_LENGTH, out, count << 6)
      ) {
        return stopped();
      }
      count++;
    }
  }
  return stopped();
}

parentPort?.postMessage(await decodeRange(workerData as HalfParseJob));
