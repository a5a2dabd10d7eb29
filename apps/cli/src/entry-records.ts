import { CANONICAL_LENGTH, parseCanonical } from "./canonical-line.js";
import { parseEntryLine } from "./entry-line.js";
import type { EntryCounter } from "./entry-lines.js";
import type { InputSource } from "./input-source.js";
import { type ByteRange, contentEnd, lineChunks, lineEnd, NEWLINE } from "./line-chunks.js";

/**
 * Entries as 64-byte records (key ‖ value) in input order, appended to one growing buffer: no
 * object, string or JSON.parse per line for lines in the canonical form
 * `{"key":"0x<64 hex>","value":"0x<64 hex>"}` (decoded by a byte scanner and a nibble table);
 * any other line goes through parseEntryLine, so every line obeys the same input rules and bad
 * lines fail with the same messages.
 */
export class EntryRecords {
  records: Uint8Array;
  count = 0;

  /** `expected`: the entries the input probably holds (from its size), so the buffer rarely grows. */
  constructor(expected = 65536) {
    this.records = new Uint8Array(64 * Math.max(1024, expected));
  }

  /** Appends `count` records (64 bytes each) from `records`. */
  appendRecords(records: Uint8Array, count: number): void {
    this.#room(count);
    this.records.set(records.subarray(0, count * 64), this.count * 64);
    this.count += count;
  }

  /** Reserves one record and returns its offset. */
  reserve(): number {
    this.#room(1);
    return this.count * 64;
  }

  /** Makes room for `more` records after the held ones (at least doubling the buffer). */
  #room(more: number): void {
    const needed = (this.count + more) * 64;
    if (needed <= this.records.length) return;
    const grown = new Uint8Array(Math.max(needed, this.records.length * 2));
    grown.set(this.records.subarray(0, this.count * 64));
    this.records = grown;
  }
}

/**
 * A part of a file input: its bytes `range`, and `lines`, the lines before it (line numbers in
 * errors count on from there), which reading advances to the lines up to its end.
 */
export interface InputPart {
  readonly range: ByteRange;
  lines: number;
}

/**
 * Reads the entries of `input` (only `part` of it, when given) into `out` until the input ends
 * (returns undefined) or `out` holds at least `limit` entries at a chunk boundary: then it
 * returns the rest of the input's entries, one new 64-byte record each, in input order. Blank
 * lines are skipped; a bad line throws a BAD_INPUT CliError naming the source and line number (now or while the rest is read).
 */
export async function readEntryRecords(
  input: InputSource,
  counter: EntryCounter,
  out: EntryRecords,
  limit: number,
  part?: InputPart,
): Promise<AsyncGenerator<Uint8Array> | undefined> {
  const mode = { overflow: false };
  const lines = lineRecords(input, counter, out, mode, part);
  for (;;) {
    const next = await lines.next();
    if (next.done === true) return undefined;
    if (out.count >= limit) {
      mode.overflow = true;
      return rest(lines);
    }
  }
}

async function* rest(lines: AsyncGenerator<Uint8Array | undefined>): AsyncGenerator<Uint8Array> {
  for await (const record of lines) if (record !== undefined) yield record;
}

/**
 * The line loop: parses into `out`, yielding undefined after each chunk (where the caller may
 * switch to overflow); in overflow mode every entry is yielded as a record of its own.
 */
async function* lineRecords(
  input: InputSource,
  counter: EntryCounter,
  out: EntryRecords,
  mode: { overflow: boolean },
  part: InputPart | undefined,
): AsyncGenerator<Uint8Array | undefined> {
  let lineNumber = part?.lines ?? 0;
  // Parses one line; returns its record in overflow mode, true when appended to `out`, false
  // for a blank line.
  const parse = (chunk: Buffer, start: number, end: number): Uint8Array | boolean => {
    lineNumber++;
    const stop = contentEnd(chunk, start, end);
    // Reserve first: growing replaces out.records.
    const at = mode.overflow ? 0 : out.reserve();
    const target = mode.overflow ? new Uint8Array(64) : out.records;
    if (
      !parseCanonical(chunk, start, stop, target, at) &&
      !parseEntryLine(chunk.toString("utf8", start, stop), lineNumber, input.name, target, at)
    ) {
      return false;
    }
    if ((++counter.entries & 0xffff) === 0) counter.onProgress?.(counter.entries);
    if (mode.overflow) return target;
    out.count++;
    return true;
  };
  for await (const chunk of lineChunks(input, counter, part?.range)) {
    for (let start = chunk.start; start < chunk.end; ) {
      // Most lines are canonical: 153 bytes, then the newline. Decoded in place without a search
      // for the newline (a canonical line holds none, so the guess cannot span two lines).
      const guess = start + CANONICAL_LENGTH;
      if (!mode.overflow && guess < chunk.end && chunk.bytes[guess] === NEWLINE) {
        const at = out.reserve(); // first: growing replaces out.records
        if (parseCanonical(chunk.bytes, start, guess, out.records, at)) {
          lineNumber++;
          out.count++;
          if ((++counter.entries & 0xffff) === 0) counter.onProgress?.(counter.entries);
          start = guess + 1;
          continue;
        }
      }
      const end = lineEnd(chunk, start);
      const record = parse(chunk.bytes, start, end);
      if (record instanceof Uint8Array) yield record;
      start = end + 1;
    }
    if (part !== undefined) part.lines = lineNumber;
    if (!mode.overflow) yield undefined;
  }
}
