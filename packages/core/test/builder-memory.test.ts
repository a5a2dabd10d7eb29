import { describe, expect, it } from "vitest";
import { buildTree, sortEntries } from "../src/builder/index.js";
import { compareBytes, type TreeEntry } from "../src/index.js";
import { FsRunStorage } from "./helpers/builder-fs-run-storage.js";
import { prng } from "./helpers/tree-fixtures.js";

const MiB = 1024 * 1024;

/** Peak RSS above the level at creation, sampled whenever `sample()` is called. */
class RssMeter {
  readonly base = process.memoryUsage.rss();
  peak = this.base;
  sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peak) this.peak = rss;
  }
  get growthMiB(): number {
    return (this.peak - this.base) / MiB;
  }
}

describe("memory stays bounded whatever the input size", () => {
  it("builder: 300k stems stream through with RSS growth far below the tree's size", async () => {
    const n = Number(process.env.BN ?? 300_000);
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
        meter.sample();
      },
    });
    expect(result.stems).toBe(n);
    expect(nodes).toBe(result.nodes);
    // Everything emitted is ~30 MB of bytes alone (several times that as JS objects); none of
    // it is kept.
    expect(blobBytes / MiB).toBeGreaterThan(25);
    console.log("rss growth MiB", meter.growthMiB);
    expect(meter.growthMiB).toBeLessThan(24);
  }, 120_000);

  it("external sort: 1M unsorted entries (64 MB) with 512 KiB runs", async () => {
    const n = Number(process.env.SN ?? 1_000_000);
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
        if ((++count & 0x3fff) === 0) meter.sample();
      }
      expect(count).toBe(n);
      expect(ordered).toBe(true);
      expect(storage.written).toBe(Math.ceil(n / 8192));
      console.log("rss growth MiB", meter.growthMiB);
      expect(meter.growthMiB).toBeLessThan(24);
    } finally {
      await storage.dispose();
    }
  }, 120_000);
});
