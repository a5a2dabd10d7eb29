// The build's fast input path: the byte scanner must agree with the JSON reader on every line
// it accepts, hand every other line to it, and the in-memory radix sort must order and dedupe
// exactly like the external sort it replaces (which large inputs still use).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseEntryLine } from "../src/entry-line.js";
import { parseCanonical } from "../src/entry-records.js";
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
  it("orders by key and keeps the last entry of each key (a plain stable sort as reference)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.nat(1000)), { maxLength: 400 }), (entries) => {
        const records = new Uint8Array(entries.length * 64 + 64);
        entries.forEach(([k, v], i) => {
          records.set(k, i * 64);
          new DataView(records.buffer).setUint32(i * 64 + 32, v);
          records.fill(0xff, i * 64 + 36, i * 64 + 64); // NaN bit patterns survive the copies
        });
        const sorted = sortRecords(records, entries.length);
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
      }),
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
