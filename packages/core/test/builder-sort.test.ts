import { readdir } from "node:fs/promises";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BuilderError, buildTree, type RunStorage, sortEntries } from "../src/builder/index.js";
import { compareBytes } from "../src/bytes/index.js";
import type { NodeWrite, TreeEntry } from "../src/index.js";
import { compareStems, firstDifference, referenceCommit } from "./helpers/builder-fixtures.js";
import { FsRunStorage } from "./helpers/builder-fs-run-storage.js";
import { hex } from "./helpers/shared.js";
import { prng } from "./helpers/tree-fixtures.js";

/** Unsorted entries; `dupEvery` > 0 repeats an earlier key every so often (with a new value). */
function unsortedEntries(seed: number, n: number, dupEvery = 0): TreeEntry[] {
  const rand = prng(seed);
  const out: TreeEntry[] = [];
  const seen = new Set<string>();
  while (out.length < n) {
    const i = out.length;
    const r = rand(2);
    if (dupEvery > 0 && i > 0 && i % dupEvery === 0) {
      out.push({ key: out[((r[0]! << 8) | r[1]!) % i]!.key.slice(), value: rand(32) });
      continue;
    }
    const key = rand(32);
    // Share stems between entries so the sorted output groups keys by stem.
    if (i > 0 && r[0]! % 3 === 0) key.set(out[((r[0]! << 8) | r[1]!) % i]!.key.subarray(0, 31));
    if (seen.has(hex(key))) continue;
    seen.add(hex(key));
    out.push({ key, value: rand(32) });
  }
  return out;
}

/** Key hex → value with the last value of each key, in key order. */
function expectedOrder(entries: readonly TreeEntry[]): [string, string][] {
  const last = new Map<string, string>();
  for (const e of entries) last.set(hex(e.key), hex(e.value));
  return [...last].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

async function drain(it: AsyncIterable<TreeEntry>): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for await (const e of it) out.push([hex(e.key), hex(e.value)]);
  return out;
}

/** In-memory runs, read back in chunks of an awkward size (and some empty ones). */
class ChunkyRunStorage implements RunStorage {
  readonly runs = new Map<string, Uint8Array>();
  written = 0;
  #next = 0;
  constructor(readonly chunkSize: number) {}
  async writeRun(chunks: AsyncIterable<Uint8Array>) {
    const handle = `run${this.#next++}`;
    const parts: Uint8Array[] = [];
    for await (const chunk of chunks) parts.push(chunk);
    this.runs.set(handle, Uint8Array.from(Buffer.concat(parts)));
    this.written++;
    return handle;
  }
  async *readRun(handle: string) {
    const run = this.runs.get(handle)!;
    for (let at = 0; at < run.length; at += this.chunkSize) {
      if (at % (this.chunkSize * 5) === 0) yield new Uint8Array(0);
      yield run.subarray(at, Math.min(run.length, at + this.chunkSize));
    }
  }
  async deleteRun(handle: string) {
    this.runs.delete(handle);
  }
}

describe("sortEntries: external sort with a k-way merge", () => {
  let storage: FsRunStorage;
  beforeEach(async () => {
    storage = await FsRunStorage.create();
  });
  afterEach(async () => {
    await storage.dispose();
  });

  it("input that fits one run is sorted in memory, no run is written", async () => {
    const entries = unsortedEntries(1, 3000);
    const out = await drain(sortEntries(entries, { runStorage: storage }));
    expect(out).toEqual(expectedOrder(entries));
    expect(storage.written).toBe(0);
  });

  it("many runs on disk merge into one sorted stream; runs are deleted afterwards", async () => {
    const entries = unsortedEntries(2, 20_000);
    const out = await drain(sortEntries(entries, { runStorage: storage, runBytes: 64 * 1000 }));
    expect(out).toEqual(expectedOrder(entries));
    expect(storage.written).toBe(20);
    expect(storage.deleted).toBe(20);
    expect(await readdir(storage.dir)).toEqual([]);
  });

  it("more runs than maxFanIn are merged in passes (20 runs, fan-in 4: 20 → 5 → 2)", async () => {
    const entries = unsortedEntries(9, 20_000, 101);
    const out = await drain(
      sortEntries(entries, {
        runStorage: storage,
        runBytes: 64 * 1000,
        maxFanIn: 4,
        duplicates: "last",
      }),
    );
    expect(out).toEqual(expectedOrder(entries));
    expect(storage.written).toBe(20 + 5 + 1);
    expect(storage.deleted).toBe(26);
    expect(await readdir(storage.dir)).toEqual([]);
  });

  it("duplicates: 'error' names the key; 'last' keeps the value given last, within and across runs", async () => {
    const entries = unsortedEntries(3, 5000, 97);
    await expect(
      drain(sortEntries(entries, { runStorage: storage, runBytes: 64 * 700 })),
    ).rejects.toMatchObject({ code: "DUPLICATE_KEY" });
    const out = await drain(
      sortEntries(entries, { runStorage: storage, runBytes: 64 * 700, duplicates: "last" }),
    );
    expect(out).toEqual(expectedOrder(entries));
    expect(out.length).toBeLessThan(entries.length);
    const inMemory = await drain(sortEntries(entries, { runStorage: storage, duplicates: "last" }));
    expect(inMemory).toEqual(out);
  });

  it("property: any chunking of the runs and any fan-in give the same sorted output", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.integer({ min: 0, max: 600 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 130 }),
        fc.integer({ min: 2, max: 5 }),
        async (seed, n, runEntries, chunkSize, maxFanIn) => {
          const entries = unsortedEntries(seed, n, 13);
          const chunky = new ChunkyRunStorage(chunkSize);
          const out = await drain(
            sortEntries(entries, {
              runStorage: chunky,
              runBytes: 64 * runEntries,
              maxFanIn,
              duplicates: "last",
            }),
          );
          expect(out).toEqual(expectedOrder(entries));
          expect(chunky.runs.size).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a truncated run is an INVALID_RUN error", async () => {
    const broken: RunStorage = {
      writeRun: async () => "r",
      async *readRun() {
        yield new Uint8Array(100);
      },
      deleteRun: async () => {},
    };
    const error = await drain(
      sortEntries(unsortedEntries(4, 10), { runStorage: broken, runBytes: 64 * 4 }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuilderError);
    expect((error as BuilderError).code).toBe("INVALID_RUN");
    expect((error as BuilderError).message).toContain("36 of 64 bytes");
  });

  it("stopping early still deletes the runs", async () => {
    const entries = unsortedEntries(5, 2000);
    let seen = 0;
    for await (const _ of sortEntries(entries, { runStorage: storage, runBytes: 64 * 300 })) {
      if (++seen === 10) break;
    }
    expect(storage.written).toBe(7);
    expect(storage.deleted).toBe(7);
  });

  it("sorted output builds the same tree as inserting the unsorted entries", async () => {
    const entries = unsortedEntries(6, 4000);
    async function* source() {
      for (const e of entries) yield e;
    }
    const writes: NodeWrite[] = [];
    const result = await buildTree(
      sortEntries(source(), { runStorage: storage, runBytes: 64 * 512 }),
      { write: (nodes) => void writes.push(...nodes) },
      { groupDepth: 6 },
    );
    // The reference: the same entries grouped into stems, through a fresh tree commit.
    const stems = new Map<string, (Uint8Array | undefined)[]>();
    for (const { key, value } of entries) {
      const stem = hex(key.subarray(0, 31));
      const slots = stems.get(stem) ?? [];
      slots[key[31]!] = value;
      stems.set(stem, slots);
    }
    const stemEntries = [...stems].map(([s, values]) => ({
      stem: Uint8Array.from(Buffer.from(s.slice(2), "hex")),
      values,
    }));
    stemEntries.sort((a, b) => compareStems(a.stem, b.stem));
    const expected = referenceCommit(stemEntries, 6);
    expect(hex(result.root)).toBe(hex(expected.root));
    expect(firstDifference(writes, expected.writes)).toBeUndefined();
  });

  it("rejects bad options and entries", async () => {
    const bad = [
      { runStorage: undefined as unknown as RunStorage },
      { runStorage: storage, runBytes: 63 },
      { runStorage: storage, duplicates: "first" as "last" },
      { runStorage: storage, maxFanIn: 1 },
    ];
    for (const options of bad) {
      await expect(drain(sortEntries([], options))).rejects.toMatchObject({
        code: "INVALID_OPTION",
      });
    }
    const key = new Uint8Array(32);
    await expect(
      drain(sortEntries([{ key: new Uint8Array(31), value: key }], { runStorage: storage })),
    ).rejects.toMatchObject({ code: "INVALID_KEY" });
    await expect(
      drain(sortEntries([{ key, value: new Uint8Array(3) }], { runStorage: storage })),
    ).rejects.toMatchObject({ code: "INVALID_VALUE" });
    await expect(drain(sortEntries(7 as never, { runStorage: storage }))).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
  });

  it("byte order is the store's byte order", async () => {
    const entries = unsortedEntries(8, 500);
    const out: Uint8Array[] = [];
    for await (const e of sortEntries(entries, { runStorage: storage, runBytes: 64 * 64 })) {
      out.push(e.key);
    }
    for (let i = 1; i < out.length; i++) expect(compareBytes(out[i - 1]!, out[i]!)).toBeLessThan(0);
  });
});
