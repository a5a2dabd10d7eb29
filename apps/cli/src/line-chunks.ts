import type { EntryCounter } from "./entry-lines.js";
import { bomLength, UTF8_BOM } from "./input-rules.js";
import type { InputSource } from "./input-source.js";

/** The line feed that ends every input line. */
export const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * A stretch of input holding only whole lines: `bytes[start, end)`. Every line in it ends with
 * a newline, except the input's last line when it has none. The object is reused per chunk.
 */
export interface LineChunk {
  bytes: Buffer;
  start: number;
  end: number;
}

/**
 * The input split at line boundaries (on bytes, so a UTF-8 character cut between chunks stays
 * whole), with a leading UTF-8 BOM dropped and the bytes counted into `counter.bytes`. The
 * input stream is closed when the reader stops (stdin is left open).
 */
export async function* lineChunks(
  input: InputSource,
  counter: EntryCounter,
): AsyncGenerator<LineChunk> {
  const out: LineChunk = { bytes: Buffer.alloc(0), start: 0, end: 0 };
  let carry: Buffer | undefined;
  let first = true;
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
      const start = first ? bomLength(chunk) : 0;
      first = false;
      const lastNewline = chunk.lastIndexOf(NEWLINE);
      if (lastNewline < start) {
        carry = chunk.subarray(start);
        continue;
      }
      if (lastNewline + 1 < chunk.length) carry = chunk.subarray(lastNewline + 1);
      out.bytes = chunk;
      out.start = start;
      out.end = lastNewline + 1;
      yield out;
    }
    if (carry !== undefined && carry.length > 0) {
      out.bytes = carry;
      out.start = 0;
      out.end = carry.length;
      yield out;
    }
  } finally {
    if (input.stream !== process.stdin) (input.stream as NodeJS.ReadStream).destroy();
  }
}

/** Where the line starting at `start` ends in `chunk`: its newline, or the chunk's end. */
export function lineEnd(chunk: LineChunk, start: number): number {
  const at = chunk.bytes.indexOf(NEWLINE, start);
  return at < 0 || at >= chunk.end ? chunk.end : at;
}

/** The end of the line's content: a carriage return before `end` is not part of it. */
export function contentEnd(bytes: Uint8Array, start: number, end: number): number {
  return end > start && bytes[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
}
