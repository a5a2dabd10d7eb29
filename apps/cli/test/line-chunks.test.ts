// The line splitter under every reading: a file read in place into one reused buffer (any read
// size, so lines cross reads, outgrow the buffer and a BOM is cut) and a stream cut anywhere
// must give exactly the input's lines, BOM dropped, as splitting the whole text does.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CliError } from "../src/cli-error.js";
import { fileLineChunks, type LineChunk, lineChunks } from "../src/line-chunks.js";
import { tempDir } from "./helpers/run-cli.js";

/** Every line of the chunks (without its newline), copied out before the next chunk. */
async function linesOf(chunks: AsyncGenerator<LineChunk>): Promise<string[]> {
  const out: string[] = [];
  for await (const { bytes, start, end } of chunks) {
    let at = start;
    while (at < end) {
      const nl = bytes.indexOf(0x0a, at);
      const stop = nl < 0 || nl >= end ? end : nl;
      out.push(bytes.toString("latin1", at, stop));
      at = stop + 1;
    }
  }
  return out;
}

/** The reference: the whole text split on newlines, a leading BOM dropped. */
function expectedLines(bytes: Buffer): string[] {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const text = bytes.toString("latin1", bom ? 3 : 0);
  if (text.length === 0) return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

const piece = fc.oneof(
  fc.constantFrom("\n", "\r\n", "\xef\xbb\xbf", "\xef", "\xef\xbb", "x", '{"key":"0x1"}'),
  fc.string({ maxLength: 20 }),
  fc.integer({ min: 0, max: 700 }).map((n) => "y".repeat(n)),
);
const input = fc
  .tuple(fc.constantFrom("", "\xef\xbb\xbf", "\xef\xbb"), fc.array(piece, { maxLength: 30 }))
  .map(([head, parts]) => Buffer.from(head + parts.join(""), "latin1"));

describe("lineChunks", () => {
  it("reads a file in place, any read size, exactly as splitting the whole text", async () => {
    const { dir, cleanup } = await tempDir();
    let runs = 0;
    try {
      await fc.assert(
        fc.asyncProperty(input, fc.integer({ min: 1, max: 300 }), async (bytes, readBytes) => {
          const file = join(dir, `in-${runs++}.txt`);
          await writeFile(file, bytes);
          const counter = { entries: 0, bytes: 0 };
          expect(await linesOf(fileLineChunks(file, counter, readBytes))).toEqual(
            expectedLines(bytes),
          );
          expect(counter.bytes).toBe(bytes.length);
        }),
        { numRuns: 300 },
      );
      expect(runs).toBe(300);
    } finally {
      await cleanup();
    }
  });

  it("reads a file as two ranges split after any newline exactly as the whole file", async () => {
    const { dir, cleanup } = await tempDir();
    let runs = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          input,
          fc.integer({ min: 1, max: 300 }),
          fc.nat(),
          async (bytes, readBytes, pick) => {
            const file = join(dir, `range-${runs++}.txt`);
            await writeFile(file, bytes);
            // Where a second range may start: after a newline.
            const starts = [...bytes.keys()].filter((i) => bytes[i] === 0x0a).map((i) => i + 1);
            const split = starts.length === 0 ? bytes.length : starts[pick % starts.length]!;
            const counter = { entries: 0, bytes: 0 };
            const first = await linesOf(
              fileLineChunks(file, counter, readBytes, { start: 0, end: split }),
            );
            const second = await linesOf(
              fileLineChunks(file, counter, readBytes, { start: split, end: bytes.length }),
            );
            expect([...first, ...second]).toEqual(expectedLines(bytes));
            expect(counter.bytes).toBe(bytes.length);
          },
        ),
        { numRuns: 300 },
      );
      expect(runs).toBe(300);
    } finally {
      await cleanup();
    }
  });

  it("reads a stream cut anywhere exactly as splitting the whole text", async () => {
    await fc.assert(
      fc.asyncProperty(
        input,
        fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 6 }),
        async (bytes, cuts) => {
          const pieces: Buffer[] = [];
          for (let at = 0, c = 0; at < bytes.length; c++) {
            pieces.push(bytes.subarray(at, at + cuts[c % cuts.length]!));
            at += cuts[c % cuts.length]!;
          }
          const counter = { entries: 0, bytes: 0 };
          const source = { name: "t", stream: Readable.from(pieces) };
          expect(await linesOf(lineChunks(source, counter))).toEqual(expectedLines(bytes));
          expect(counter.bytes).toBe(bytes.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("names a file that cannot be opened (BAD_INPUT)", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const missing = join(dir, "gone.jsonl");
      const reading = linesOf(fileLineChunks(missing, { entries: 0 }, 1 << 20));
      await expect(reading).rejects.toThrow(CliError);
      await expect(linesOf(fileLineChunks(missing, { entries: 0 }, 1 << 20))).rejects.toThrow(
        `cannot read ${missing}: no such file`,
      );
    } finally {
      await cleanup();
    }
  });
});
