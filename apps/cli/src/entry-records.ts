import { parseEntryLine } from "./entry-line.js";
import type { EntryCounter } from "./entry-lines.js";
import type { InputSource } from "./input-source.js";
import { contentEnd, lineChunks, lineEnd, NEWLINE } from "./line-chunks.js";

/** Hex digit values by byte (-1: not a hex digit), the digits of the hex rule in either case. */
const NIBBLE = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[0x30 + i] = i;
for (let i = 0; i < 6; i++) {
  NIBBLE[0x41 + i] = 10 + i;
  NIBBLE[0x61 + i] = 10 + i;
}

/** Byte values by pair of hex digits ((first << 8) | second), -1 for anything else: one lookup
 * per output byte instead of two. */
const PAIR = new Int16Array(65536).fill(-1);
for (let hi = 0; hi < 256; hi++) {
  if (NIBBLE[hi]! < 0) continue;
  for (let lo = 0; lo < 256; lo++) {
    if (NIBBLE[lo]! >= 0) PAIR[(hi << 8) | lo] = (NIBBLE[hi]! << 4) | NIBBLE[lo]!;
  }
}

/** `{"key":"0x` … `","value":"0x` … `"}`: the canonical line, 153 bytes. */
const HEAD = Buffer.from('{"key":"0x');
const MIDDLE = Buffer.from('","value":"0x');
const TAIL = Buffer.from('"}');
const CANONICAL_LENGTH = HEAD.length + 64 + MIDDLE.length + 64 + TAIL.length;

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

  /** Reserves one record and returns its offset. */
  reserve(): number {
    if ((this.count + 1) * 64 > this.records.length) {
      const grown = new Uint8Array(this.records.length * 2);
      grown.set(this.records);
      this.records = grown;
    }
    return this.count * 64;
  }
}

/**
 * Reads the entries of `input` into `out` until the input ends (returns undefined) or `out`
 * holds at least `limit` entries at a chunk boundary: then it returns the rest of the input's
 * entries, one new 64-byte record each, in input order. Blank lines are skipped; a bad line
 * throws a BAD_INPUT CliError naming the source and line number (now or while the rest is read).
 */
export async function readEntryRecords(
  input: InputSource,
  counter: EntryCounter,
  out: EntryRecords,
  limit: number,
): Promise<AsyncGenerator<Uint8Array> | undefined> {
  const mode = { overflow: false };
  const lines = lineRecords(input, counter, out, mode);
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
): AsyncGenerator<Uint8Array | undefined> {
  let lineNumber = 0;
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
  for await (const chunk of lineChunks(input, counter)) {
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
    if (!mode.overflow) yield undefined;
  }
}

/** Decodes a canonical line into out[at..at+64); false (nothing promised) for anything else. */
export function parseCanonical(
  line: Uint8Array,
  start: number,
  stop: number,
  out: Uint8Array,
  at: number,
): boolean {
  if (stop - start !== CANONICAL_LENGTH) return false;
  let p = start;
  for (let i = 0; i < HEAD.length; i++) if (line[p + i] !== HEAD[i]) return false;
  p += HEAD.length;
  if (!decode32(line, p, out, at)) return false;
  p += 64;
  for (let i = 0; i < MIDDLE.length; i++) if (line[p + i] !== MIDDLE[i]) return false;
  p += MIDDLE.length;
  if (!decode32(line, p, out, at + 32)) return false;
  p += 64;
  return line[p] === TAIL[0] && line[p + 1] === TAIL[1];
}

function decode32(src: Uint8Array, p: number, out: Uint8Array, at: number): boolean {
  let bad = 0;
  for (let i = 0; i < 32; i++) {
    const byte = PAIR[(src[p + 2 * i]! << 8) | src[p + 2 * i + 1]!]!;
    bad |= byte;
    out[at + i] = byte;
  }
  return bad >= 0;
}
