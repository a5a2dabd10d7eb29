// The build's fast input path: the byte scanner must agree with the JSON reader on every line
// it accepts, hand every other line to it, and the in-memory radix sort must order and dedupe
// exactly like the external sort it replaces (which large inputs still use).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCanonical } from "../src/canonical-line.js";
import { parseEntryLine } from "../src/entry-line.js";
import { EntryRecords, readEntryRecords } from "../src/entry-records.js";
import { sortRecords } from "../src/sort-records.js";
import { runCli, tempDir } from "./helpers/run-cli.js";

const hex64 = fc
  .array(fc.constantFrom(..."0123456789abcdefABCDEF"), { minLength: 64, maxLength: 64 })
  .map((d) => d.join(""));

describe("parseCanonical (the byte scanner)", () => {
  it("decodes canonical lines exactly as parseEntryLine does", () => {
    fc.assert(
      fc.property(hex64, hex64, (k, v) => {
        const line = `{"key":"0x${k}","value":"0x${v}"}`;
        const fast = new Uint8Array(64);
        const slow = new Uint8Array(64);
        const bytes = Buffer.from(line);
        expect(parseCanonical(bytes, 0, bytes.length, fast, 0)).toBe(true);
        expect(parseEntryLine(line, 1, "t", slow, 0)).toBe(true);
        expect(fast).toEqual(slow);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses every other form (left to the JSON reader and its rules)", () => {
    const k = "ab".repeat(32);
    for (const line of [
      `{"key":"0X${k}","value":"0x${k}"}`,
      `{"key":"0x${k}", "value":"0x${k}"}`,
      `{"value":"0x${k}","key":"0x${k}"}`,
      `{"key":"0x${k.slice(1)}g","value":"0x${k}"}`,
      `{"key":"0x${k}","value":"0x${k}"} `,
      `{"key":"0x${k}","value":"0x${k}"`,
      "",
    ]) {
      const bytes = Buffer.from(line);
      expect(parseCanonical(bytes, 0, bytes.length, new Uint8Array(64), 0), line).toBe(false);
    }
  });
});

describe("readEntryRecords (the line loop)", () => {
  it("reads mixed lines in any chunking exactly as parseEntryLine reads them one by one", async () => {
    // Canonical lines beside shorter and longer ones, blank lines and CRLF endings: a newline
    // 153 bytes after a line start may belong to a later line.
    const k = (b: number) => b.toString(16).padStart(2, "0").repeat(32);
    const line = fc.oneof(
      fc.integer({ min: 0, max: 255 }).map((b) => `{"key":"0x${k(b)}","value":"0x${k(b ^ 1)}"}`),
      fc.integer({ min: 0, max: 255 }).map((b) => `{"key": "0x${k(b)}", "value": "0x${k(7)}"}`),
      fc.integer({ min: 0, max: 255 }).map((b) => ` {"value":"0x${k(b)}","key":"0x${k(b)}"}\r`),
      fc.constantFrom("", " ", "\r"),
      // Blank lines of any length (two of them may end 153 bytes after the first one starts)
      // and, rarely, a bad line: the error must name the same line as the one-by-one reader.
      fc.integer({ min: 0, max: 160 }).map((n) => " ".repeat(n)),
      // Two lines whose second newline sits 153 bytes after the first one's start.
      fc
        .tuple(fc.integer({ min: 0, max: 152 }), fc.constantFrom(" ", "x", "{"))
        .map(([b, fill]) => `${" ".repeat(b)}\n${fill.repeat(152 - b)}`),
      fc
        .integer({ min: 0, max: 30 })
        .chain((n) => fc.constantFrom("{}".padEnd(n + 2, " "), '{"key":"0x1"}', "x".repeat(n + 1))),
    );
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        async (lines, cuts, finalNewline) => {
          runs++;
          const text = lines.join("\n") + (finalNewline ? "\n" : "");
          const bytes = Buffer.from(text);
          const pieces: Buffer[] = [];
          for (let at = 0, c = 0; at < bytes.length; c++) {
            const size = cuts[c % cuts.length]!;
            pieces.push(bytes.subarray(at, at + size));
            at += size;
          }
          const out = new EntryRecords(1);
          const counter = { entries: 0, bytes: 0 };
          const input = { name: "t", stream: Readable.from(pieces) };
          const want: string[] = [];
          let failure: string | undefined;
          // The reference reads the text's lines one by one (an item may hold two lines).
          const textLines = text.split("\n");
          if (finalNewline) textLines.pop();
          for (let i = 0; i < textLines.length && failure === undefined; i++) {
            const record = new Uint8Array(64);
            const l = textLines[i]!;
            const content = l.endsWith("\r") ? l.slice(0, -1) : l;
            try {
              if (parseEntryLine(content, i + 1, "t", record, 0)) {
                want.push(Buffer.from(record).toString("hex"));
              }
            } catch (error) {
              failure = (error as Error).message;
            }
          }
          const reading = readEntryRecords(input, counter, out, 1 << 20);
          if (failure !== undefined) {
            await expect(reading).rejects.toThrow(failure);
            return;
          }
          expect(await reading).toBeUndefined();
          const got = Array.from({ length: out.count }, (_, i) =>
            Buffer.from(out.records.subarray(i * 64, i * 64 + 64)).toString("hex"),
          );
          expect(got).toEqual(want);
          expect(counter.entries).toBe(want.length);
        },
      ),
      { numRuns: 200 },
    );
    expect(runs).toBe(200);
  });
  it("keeps every record while its buffer grows (3000 canonical lines into room for 1024)", async () => {
    const hexOf = (i: number, salt: number) =>
      (i * 2654435761 + salt).toString(16).padStart(8, "0").slice(-8).repeat(8);
    const text = Array.from(
      { length: 3000 },
      (_, i) => `{"key":"0x${hexOf(i, 1)}","value":"0x${hexOf(i, 2)}"}\n`,
    ).join("");
    const out = new EntryRecords(1);
    const counter = { entries: 0, bytes: 0 };
    const input = { name: "t", stream: Readable.from([Buffer.from(text)]) };
    await readEntryRecords(input, counter, out, 1 << 20);
    expect(out.count).toBe(3000);
    for (const i of [0, 1023, 1024, 2047, 2048, 2999]) {
      const record = Buffer.from(out.records.subarray(i * 64, i * 64 + 64)).toString("hex");
      expect(record).toBe(hexOf(i, 1) + hexOf(i, 2));
    }
  });
});

describe("sortRecords", () => {
  // Keys from a small alphabet of prefixes so equal 2-byte buckets, buckets larger than the
  // insertion-sort limit and equal keys are common.
  const key = fc
    .tuple(
      fc.constantFrom(0, 1, 255),
      fc.constantFrom(0, 7),
      fc.uint8Array({ minLength: 30, maxLength: 30 }),
      fc.boolean(),
    )
    .map(([top, second, rest, shortTail]) => {
      const k = new Uint8Array(32);
      k[0] = top;
      k[1] = second;
      k.set(shortTail ? rest.map((b) => b & 1) : rest, 2);
      return k;
    });
  it("orders by key and keeps the last entry of each key, of one run or two (a plain stable sort as reference)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.nat(1000)), { maxLength: 400 }),
        fc.option(fc.nat(), { nil: undefined }),
        (entries, split) => {
          const records = new Uint8Array(entries.length * 64 + 64);
          entries.forEach(([k, v], i) => {
            records.set(k, i * 64);
            new DataView(records.buffer).setUint32(i * 64 + 32, v);
            records.fill(0xff, i * 64 + 36, i * 64 + 64); // NaN bit patterns survive the copies
          });
          // Either one run, or two (the second in a buffer of its own) cut anywhere.
          const cut = split === undefined ? entries.length : split % (entries.length + 1);
          const second = records.slice(cut * 64);
          const sorted =
            split === undefined
              ? sortRecords(records, entries.length)
              : sortRecords(records, cut, { records: second, count: entries.length - cut });
          const got: string[] = [];
          for (let i = 0; i < sorted.count; i++) {
            got.push(Buffer.from(sorted.records.subarray(i * 64, i * 64 + 64)).toString("hex"));
          }
          const last = new Map<string, string>();
          entries.forEach(([k], i) => {
            const record = Buffer.from(records.subarray(i * 64, i * 64 + 64)).toString("hex");
            last.set(Buffer.from(k).toString("hex"), record);
          });
          const expected = [...last.entries()]
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([, record]) => record);
          expect(got).toEqual(expected);
          expect(sorted.records.length).toBe(sorted.count * 64);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("bintrie build: in-memory and external sort agree", () => {
  it("the same root whether the input fits the in-memory sort or overflows to the external one", async () => {
    const { dir, cleanup } = await tempDir();
    const lines: string[] = [];
    for (let i = 0; i < 500; i++) {
      const k =
        (i % 37).toString(16).padStart(2, "0").repeat(31) + (i % 5).toString(16).padStart(2, "0");
      const v = i.toString(16).padStart(64, "0");
      // Mixed forms: canonical lines, spaced JSON, reordered fields, CRLF, blank lines.
      if (i % 4 === 0) lines.push(`{"key":"0x${k}","value":"0x${v}"}`);
      else if (i % 4 === 1) lines.push(`{ "key": "0x${k}", "value": "0x${v}" }`);
      else if (i % 4 === 2) lines.push(`{"value":"0x${v}","key":"0x${k.toUpperCase()}"}\r`);
      else lines.push(`{"key":"0x${k}","value":"0x${v}"}`, "");
    }
    const file = join(dir, "in.jsonl");
    await writeFile(file, `\ufeff${lines.join("\n")}\n`);
    const inMemory = await runCli(["build", file, "--store", "memory", "--json"]);
    const external = await runCli(["build", file, "--store", "memory", "--json"], {
      env: { BINTRIE_SORT_MEMORY_ENTRIES: "3" },
    });
    expect(inMemory.stderr).toBe("");
    expect(inMemory.code).toBe(0);
    expect(external.code).toBe(0);
    const a = JSON.parse(inMemory.stdout);
    const b = JSON.parse(external.stdout);
    expect(a).toEqual(b);
    expect(a.entries).toBe(500);
    await cleanup();
  });
});
