import { open } from "node:fs/promises";
import { Worker } from "node:worker_threads";
import { CANONICAL_LINE_BYTES } from "./canonical-line.js";
import type { HalfParseJob, HalfParseResult } from "./half-parse-worker.js";

/** Bytes searched past the middle for the first line start (far longer than any real line). */
const SPLIT_WINDOW = 1 << 16;

/** The second half of a file, being decoded on a worker thread while this one reads the first. */
export interface SecondHalf {
  /** Where the second half starts: a line start, after the first newline past the middle. */
  readonly start: number;
  /** The decoded records, 64 bytes each (`result.count` of them). */
  readonly records: Uint8Array;
  /** The worker's answer, or undefined when it failed (then read the half here). */
  readonly result: Promise<HalfParseResult | undefined>;
  /** Stops the worker (when the first half failed and the answer is not needed). */
  cancel(): Promise<void>;
}

/**
 * Starts decoding the second half of `file` (`bytes` long) on a worker thread: its canonical
 * lines, up to the first line of another form. Undefined when there is no line start past the
 * middle. The worker's records are in input order after every record of the first half.
 */
export async function parseSecondHalf(
  file: string,
  bytes: number,
): Promise<SecondHalf | undefined> {
  const middle = Math.floor(bytes / 2);
  const window = Buffer.alloc(Math.min(SPLIT_WINDOW, bytes - middle));
  const handle = await open(file, "r");
  let read: number;
  try {
    ({ bytesRead: read } = await handle.read(window, 0, window.length, middle));
  } finally {
    await handle.close();
  }
  const newline = window.subarray(0, read).indexOf(0x0a);
  if (newline < 0 || middle + newline + 1 >= bytes) return undefined;
  const start = middle + newline + 1;
  const room = Math.floor((bytes - start) / CANONICAL_LINE_BYTES) + 1;
  const records = new SharedArrayBuffer(room * 64);
  const job: HalfParseJob = { file, start, end: bytes, records };
  const worker = new Worker(new URL("./half-parse-worker.js", import.meta.url), {
    workerData: job,
  });
  const result = new Promise<HalfParseResult | undefined>((resolve) => {
    worker.once("message", (answer: HalfParseResult) => resolve(answer));
    worker.once("error", () => resolve(undefined));
    worker.once("exit", () => resolve(undefined));
  });
  return {
    start,
    records: new Uint8Array(records),
    result,
    async cancel() {
      await worker.terminate();
    },
  };
}
