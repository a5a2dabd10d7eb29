import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { buildTree, sortEntries } from "../src/builder/index.js";
import { compareBytes } from "../src/bytes/index.js";
import type { TreeEntry } from "../src/index.js";
import { FsRunStorage } from "./helpers/builder-fs-run-storage.js";
import { prng } from "./helpers/tree-fixtures.js";

const MiB = 1024 * 1024;

// A full collection before each sample, so the numbers show what is kept, not how much garbage
// V8 let pile up (it collects external buffers only every ~64 MB).
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/**
 * Peak RSS and peak live memory (heap + array buffers after a full collection) above the level
 * at creation, sampled whenever `sample()` is called.
 */
class RssMeter {
  readonly base: number;
  readonly liveBase: number;
  peak: number;
  livePeak: number;
  constructor() {
    gc();
    this.base = process.memoryUsage.rss();
    this.peak = this.base;
    this.liveBase = live();
    this.livePeak = this.liveBase;
  }
  sample(): void {
    gc();
    const rss = process.memoryUsage.rss();
    if (rss > this.peak) this.peak = rss;
    const now = live();
    if (now > this.livePeak) this.livePeak = now;
  }
  get liveGrowthMiB(): number {
    return (this.livePeak - this.liveBase) / MiB;
  }
  get growthMiB(): number {
    return (this.peak - this.base) / MiB;
  }
}

function live(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

describe("memory stays bounded whatever the input size", () => {
  it("builder: 300k stems stream through; live memory grows by a few MiB, RSS stays flat", async () => {
    const n = 300_000;
    // Sorted, evenly spread stems without values (cheap to hash: the test is about memory).
    function* stems() {
      const rand = prng(1);
      for (let i = 0; i < n; i++) {
        const stem = rand(31);
        const x = Math.floor(((i + stem[6]! / 256) / n) * 2 ** 48);
        for (let b = 5; b >= 0; b--) stem[5 - b] = Math.floor(x / 2 ** (8 * b)) % 256;
        yield { stem, values: [] };
      }
    }
    const meter = new RssMeter();
    let nodes = 0;
    let blobBytes = 0;
    const result = await buildTree(stems(), {
      write(batch) {
        nodes += batch.length;
        for (const node of batch) blobBytes += node.blob.length + node.path.length + 32;
        if (nodes % (1 << 16) < batch.length) meter.sample();
      },
    });
    expect(result.stems).toBe(n);
    expect(nodes).toBe(result.nodes);
    // Everything emitted is ~30 MB of bytes alone (several times that as JS objects); none of
    // it is kept: live memory grows by a few MiB (one stem batch, the spine, V8 noise).
    expect(blobBytes / MiB).toBeGreaterThan(25);
    expect(meter.liveGrowthMiB).toBeLessThan(16);
    // RSS also holds V8's young generation and freed malloc memory; it stays flat (~35 MiB
    // at 300k stems and at 1.2M stems when measured).
    expect(meter.growthMiB).toBeLessThan(64);
  }, 120_000);

  it("external sort: 1M unsorted entries (64 MB) with 512 KiB runs", async () => {
    const n = 1_000_000;
    function* entries(): Generator<TreeEntry> {
      const rand = prng(2);
      for (let i = 0; i < n; i++) yield { key: rand(32), value: rand(32) };
    }
    const storage = await FsRunStorage.create();
    try {
      const meter = new RssMeter();
      let count = 0;
      let previous: Uint8Array = new Uint8Array(32);
      let ordered = true;
      for await (const entry of sortEntries(entries(), {
        runStorage: storage,
        runBytes: 512 * 1024,
      })) {
        if (count > 0 && compareBytes(previous, entry.key) >= 0) ordered = false;
        previous = entry.key;
        if ((++count & 0xffff) === 0) meter.sample();
      }
      expect(count).toBe(n);
      expect(ordered).toBe(true);
      // 123 runs of 8192 entries, more than the default fan-in of 64: one extra merge pass.
      expect(storage.written).toBeGreaterThan(Math.ceil(n / 8192));
      expect(storage.deleted).toBe(storage.written);
      // 64 MB of entries went through; live memory holds one run buffer and one read chunk per
      // merged run (measured ~2-4 MiB, at 1M and at 4M entries); RSS stays flat (~35 MiB).
      expect(meter.liveGrowthMiB).toBeLessThan(32);
      expect(meter.growthMiB).toBeLessThan(64);
    } finally {
      await storage.dispose();
    }
  }, 120_000);
});
