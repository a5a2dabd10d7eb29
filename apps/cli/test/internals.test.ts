// In-process checks of two internal pieces the CLI tests only reach through whole commands.
import { readFile } from "node:fs/promises";
import { decodeGroupBlob, encodeGroupBlobFromEntries, type GroupEntry } from "@bintrie/codec";
import { getHasher } from "@bintrie/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { batchBytesFromEnvironment } from "../src/commands/build.js";
import { FsRunStorage } from "../src/fs-run-storage.js";
import { GroupHasher } from "../src/group-hasher.js";
import { groupBlobHash } from "../src/node-digest.js";
import { tempDir } from "./helpers/run-cli.js";

/** Random valid groups: entries at distinct, non-overlapping positions of a depth-g group. */
const groups = fc.integer({ min: 1, max: 8 }).chain((g) =>
  fc
    .array(
      fc.record({
        depthOffset: fc.integer({ min: 1, max: g }),
        bits: fc.integer({ min: 0, max: (1 << g) - 1 }),
        hash: fc.uint8Array({ minLength: 32, maxLength: 32 }),
      }),
      { maxLength: 40 },
    )
    .map((raw) => {
      const taken: GroupEntry[] = [];
      for (const r of raw) {
        const position = (r.bits >>> (g - r.depthOffset)) << (g - r.depthOffset);
        const clash = taken.some((t) => {
          const shallow = Math.min(t.depthOffset, r.depthOffset);
          return t.position >>> (g - shallow) === position >>> (g - shallow);
        });
        if (!clash) taken.push({ position, depthOffset: r.depthOffset, hash: r.hash });
      }
      return decodeGroupBlob(encodeGroupBlobFromEntries(g, taken));
    }),
);

describe("GroupHasher", () => {
  it("equals the node-by-node group hash for any valid group (sha256 and blake3)", () => {
    for (const name of ["sha256", "blake3"] as const) {
      const hasher = getHasher(name);
      const batched = new GroupHasher(hasher);
      fc.assert(
        fc.property(groups, (group) => {
          expect(batched.hash(group)).toEqual(groupBlobHash(hasher, group));
        }),
        { numRuns: 300 },
      );
    }
  });
});

describe("FsRunStorage", () => {
  it("reads back every run byte for byte, deletes runs, and removes its directory", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const storage = new FsRunStorage(dir);
      const big = new Uint8Array(3_000_000);
      for (let i = 0; i < big.length; i++) big[i] = (i * 7) & 0xff;
      const runs = [new Uint8Array(0), big];
      const handles = [];
      for (const run of runs) {
        // In uneven chunks, as the sort hands them over.
        handles.push(
          await storage.writeRun(
            (async function* () {
              for (let at = 0; at < run.length; at += 100_003) yield run.slice(at, at + 100_003);
            })(),
          ),
        );
      }
      for (let i = 0; i < runs.length; i++) {
        const chunks: Uint8Array[] = [];
        for await (const chunk of storage.readRun(handles[i]!)) chunks.push(chunk);
        expect(Buffer.concat(chunks).equals(runs[i]!)).toBe(true);
      }
      await storage.deleteRun(handles[0]!);
      await expect(readFile(handles[0]!)).rejects.toThrow(/ENOENT/);
      await storage.dispose();
      await expect(readFile(handles[1]!)).rejects.toThrow(/ENOENT/);
    } finally {
      await cleanup();
    }
  });
});

describe("batchBytesFromEnvironment", () => {
  it("defaults to 2 MiB batches, takes a positive integer, refuses anything else as BAD_USAGE", () => {
    expect(batchBytesFromEnvironment(undefined)).toBe(2 * 1024 * 1024);
    expect(batchBytesFromEnvironment("")).toBe(2 * 1024 * 1024);
    expect(batchBytesFromEnvironment("16384")).toBe(16384);
    for (const bad of ["0", "-1", "1.5", "abc", "1e400"]) {
      expect(() => batchBytesFromEnvironment(bad)).toThrow(
        expect.objectContaining({ code: "BAD_USAGE" }),
      );
    }
  });
});
