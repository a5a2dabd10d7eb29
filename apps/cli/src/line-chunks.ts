import { type FileHandle, open } from "node:fs/promises";
import type { EntryCounter } from "./entry-lines.js";
import { BOM_UNDECIDED, bomLength } from "./input-rules.js";
import { type InputSource, unreadable } from "./input-source.js";

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

/** Bytes read from a file at a time (the buffer grows only for a longer line). */
export const FILE_READ_BYTES = 1 << 20;

/**
 * The input split at line boundaries (on bytes, so a UTF-8 character cut between chunks stays
 * whole), with a leading UTF-8 BOM dropped and the bytes counted into `counter.bytes`. A chunk's
 * bytes are valid until the next chunk is asked for: a file is read into one reused buffer. The
 * input is closed when the reader stops (stdin is left open).
 */
export function lineChunks(
  input: InputSource,
  counter: EntryCounter,
  range?: ByteRange,
): AsyncGenerator<LineChunk> {
  return "file" in input
    ? fileLineChunks(input.file, counter, FILE_READ_BYTES, range)
    : streamLineChunks(input.stream, counter, input.name);
}

/**
 * Bytes [start, end) of a file. A range other than the whole file starts at a line start and
 * ends after a newline or at the end of the file; only a range from 0 can start with a BOM.
 */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * A file's line chunks, read into one buffer of `readBytes` (grown only for a longer line): the
 * unfinished last line of a read moves to the front before the next read, so reading allocates
 * and copies nothing per chunk (a stream hands out a new buffer per piece, and a carried line
 * costs a concatenation).
 */
export async function* fileLineChunks(
  file: string,
  counter: EntryCounter,
  readBytes: number,
  range: ByteRange = { start: 0, end: Number.POSITIVE_INFINITY },
): AsyncGenerator<LineChunk> {
  let handle: FileHandle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    throw unreadable(file, error);
  }
  let buffer = Buffer.allocUnsafe(readBytes);
  const out: LineChunk = { bytes: buffer, start: 0, end: 0 };
  // Bytes at the front of `buffer` carried over from the last read (an unfinished line).
  let held = 0;
  let first = range.start === 0;
  let position = range.start;
  try {
    for (;;) {
      // A line longer than half the buffer: double it, so every read fills at least half.
      if (held > buffer.length >>> 1) {
        const grown = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(grown, 0, 0, held);
        buffer = grown;
      }
      let read: number;
      const wanted = Math.min(buffer.length - held, range.end - position);
      if (wanted <= 0) break;
      try {
        ({ bytesRead: read } = await handle.read(buffer, held, wanted, position));
      } catch (error) {
        throw unreadable(file, error);
      }
      if (read === 0) break;
      position += read;
      if (counter.bytes !== undefined) counter.bytes += read;
      const end = held + read;
      const start = first ? bomLength(buffer.subarray(0, end)) : 0;
      if (start === BOM_UNDECIDED) {
        held = end; // a BOM cut between reads: decide with more bytes
        continue;
      }
      first = false;
      const lastNewline = buffer.lastIndexOf(NEWLINE, end - 1);
      if (lastNewline >= start) yield fill(out, buffer, start, lastNewline + 1);
      const rest = Math.max(lastNewline + 1, start);
      buffer.copyWithin(0, rest, end);
      held = end - rest;
    }
    if (held > 0) yield fill(out, buffer, 0, held);
  } finally {
    await handle.close();
  }
}

/**
 * A stream's line chunks (stdin, or a FIFO or device read front to back, never at a position):
 * its pieces, a line cut between two of them carried over. A read error names the input.
 */
async function* streamLineChunks(
  stream: NodeJS.ReadableStream,
  counter: EntryCounter,
  name: string,
): AsyncGenerator<LineChunk> {
  const out: LineChunk = { bytes: Buffer.alloc(0), start: 0, end: 0 };
  let carry: Buffer | undefined;
  let first = true;
  const pieces = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<string | Buffer>;
      try {
        next = await pieces.next();
      } catch (error) {
        throw unreadable(name, error);
      }
      if (next.done === true) break;
      const piece = next.value;
      let chunk = typeof piece === "string" ? Buffer.from(piece) : (piece as Buffer);
      if (counter.bytes !== undefined) counter.bytes += chunk.length;
      if (carry !== undefined) {
        chunk = Buffer.concat([carry, chunk]);
        carry = undefined;
      }
      const start = first ? bomLength(chunk) : 0;
      if (start === BOM_UNDECIDED) {
        carry = chunk; // a BOM cut between chunks: decide with more bytes
        continue;
      }
      first = false;
      const lastNewline = chunk.lastIndexOf(NEWLINE);
      if (lastNewline < start) {
        carry = chunk.subarray(start);
        continue;
      }
      if (lastNewline + 1 < chunk.length) carry = chunk.subarray(lastNewline + 1);
      yield fill(out, chunk, start, lastNewline + 1);
    }
    if (carry !== undefined && carry.length > 0) yield fill(out, carry, 0, carry.length);
  } finally {
    if (stream !== process.stdin) (stream as NodeJS.ReadStream).destroy();
  }
}

/** `chunk` (reused) set to bytes[start, end). */
function fill(chunk: LineChunk, bytes: Buffer, start: number, end: number): LineChunk {
  chunk.bytes = bytes;
  chunk.start = start;
  chunk.end = end;
  return chunk;
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
