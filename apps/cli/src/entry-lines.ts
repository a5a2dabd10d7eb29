import type { TreeEntry } from "@bintrie/core";
import { parseEntryLine } from "./entry-line.js";
import type { InputSource } from "./input-source.js";
import { contentEnd, lineChunks, lineEnd } from "./line-chunks.js";

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
  const parse = (chunk: Buffer, start: number, end: number): TreeEntry | undefined => {
    lineNumber++;
    const stop = contentEnd(chunk, start, end);
    const record = new Uint8Array(64);
    if (!parseEntryLine(chunk.toString("utf8", start, stop), lineNumber, input.name, record, 0)) {
      return undefined;
    }
    if ((++counter.entries & 0xffff) === 0) counter.onProgress?.(counter.entries);
    return { key: record.subarray(0, 32), value: record.subarray(32, 64) };
  };
  for await (const chunk of lineChunks(input, counter)) {
    for (let start = chunk.start; start < chunk.end; ) {
      const end = lineEnd(chunk, start);
      const entry = parse(chunk.bytes, start, end);
      if (entry !== undefined) yield entry;
      start = end + 1;
    }
  }
}
