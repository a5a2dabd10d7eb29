import type { TreeEntry } from "@bintrie/core";
import { parseEntryLine } from "./entry-line.js";
import { bomLength, UTF8_BOM } from "./input-rules.js";
import type { InputSource } from "./input-source.js";

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Entries read so far (the count `build --json` reports). */
export interface EntryCounter {
  entries: number;
  /** Input bytes read so far. */
  bytes?: number;
  /** Called after every 65 536th entry (progress display). */
  readonly onProgress?: (entries: number) => void;
}

/**
 * The entries of a JSON-lines input, in input order. Lines are split on bytes before decoding
 * (a UTF-8 character cut between chunks stays whole); blank lines are skipped; the first bad
 * line throws a BAD_INPUT CliError naming the source and line number.
 */
export async function* readEntryLines(
  input: InputSource,
  counter: EntryCounter,
): AsyncGenerator<TreeEntry> {
  let lineNumber = 0;
  let carry: Buffer | undefined;
  let first = true;
  const parse = (chunk: Buffer, start: number, end: number): TreeEntry | undefined => {
    lineNumber++;
    const stop = end > start && chunk[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
    const record = new Uint8Array(64);
    if (!parseEntryLine(chunk.toString("utf8", start, stop), lineNumber, input.name, record, 0)) {
      return undefined;
    }
    if ((++counter.entries & 0xffff) === 0) counter.onProgress?.(counter.entries);
    return { key: record.subarray(0, 32), value: record.subarray(32, 64) };
  };
  try {
    for await (const piece of input.stream) {
      let chunk = typeof piece === "string" ? Buffer.from(piece) : (piece as Buffer);
      if (counter.bytes !== undefined) counter.bytes += chunk.length;
      if (carry !== undefined) {
        chunk = Buffer.concat([carry, chunk]);
        carry = undefined;
      }
      if (first && chunk.length < 3 && chunk.every((b, i) => b === UTF8_BOM[i])) {
        carry = chunk; // a BOM cut between chunks: decide with more bytes
        continue;
      }
      let start = first ? bomLength(chunk) : 0;
      first = false;
      for (;;) {
        const end = chunk.indexOf(NEWLINE, start);
        if (end < 0) break;
        const entry = parse(chunk, start, end);
        if (entry !== undefined) yield entry;
        start = end + 1;
      }
      if (start < chunk.length) carry = chunk.subarray(start);
    }
    if (carry !== undefined && carry.length > 0) {
      const entry = parse(carry, 0, carry.length);
      if (entry !== undefined) yield entry;
    }
  } finally {
    if (input.stream !== process.stdin) (input.stream as NodeJS.ReadStream).destroy();
  }
}
