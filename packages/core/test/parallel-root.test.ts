// parallelRoot runs its partitions in worker threads, which load the built worker script:
// this test imports the package's dist (core's test task depends on its build).
import { createHash } from "node:crypto";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { BinaryTree } from "../dist/index.js";
import {
  closeParallelWorkers,
  type ParallelRootTimings,
  parallelRoot,
} from "../dist/node/index.js";
import { getHasher } from "../src/hash/get-hasher.js";
import { rootOnThreads } from "../src/node/parallel-root.js";
import { PartitionWorkerPool } from "../src/node/partition-worker-pool.js";
import { hex } from "./helpers/shared.js";

afterAll(() => closeParallelWorkers());

/** The shared workload: key_i = sha256(be64(i)), value_i = sha256(key_i), as flat buffers. */
function sharedWorkload(n: number): { keys: Uint8Array; values: Uint8Array } {
  const keys = new Uint8Array(n * 32);
  const values = new Uint8Array(n * 32);
  const index = Buffer.alloc(8);
  for (let i = 0; i < n; i++) {
    index.writeBigUInt64BE(BigInt(i));
    const key = createHash("sha256").update(index).digest();
    keys.set(key, i * 32);
    values.set(createHash("sha256").update(key).digest(), i * 32);
  }
  return { keys, values };
}

function singleThreadRoot(keys: Uint8Array, values: Uint8Array): string {
  const tree = new BinaryTree();
  for (let i = 0; i < keys.length / 32; i++)
    tree.put(keys.subarray(i * 32, i * 32 + 32), values.subarray(i * 32, i * 32 + 32));
  return hex(tree.hash());
}

describe("parallelRoot", () => {
  // go-ethereum's root of the 10,000-key shared workload: `geth-bintrie speed 10000` (go-ethereum
  // 02b73d4ea7181464175e0a6cbecc0a3a2655a562, tools/geth-bintrie of the ground-truth folder), pinned here.
  const GETH_ROOT_10K = "0x18e08444214b1aeecfbb72f3a60da2e373f8efcb2d457287233b6315523d5333";

  it("reaches geth's root of the 10k shared workload at 1, 2 and 4 threads", async () => {
    const { keys, values } = sharedWorkload(10_000);
    for (const threads of [1, 2, 4]) {
      const timings = {} as ParallelRootTimings;
      expect(hex(await parallelRoot(keys, values, { threads, timings }))).toBe(GETH_ROOT_10K);
      // Each thread built units of its own (the threads-1 path is a plain BinaryTree).
      if (threads > 1)
        expect(timings.threads.map((t) => t.units > 0)).toEqual(Array(threads).fill(true));
    }
  });

  // `geth-bintrie speed 3000` (the same go-ethereum), run 2026-12-06, pinned here.
  const GETH_ROOT_3K = "0xc3bd2623b5c37e5df912b8094e0c52fcce08fbab26a870a28b2c9a707738d2b1";

  it("matches geth's speed root at 3,000 keys (2 threads, 5 partition bits)", async () => {
    const { keys, values } = sharedWorkload(3000);
    expect(hex(await parallelRoot(keys, values, { threads: 2, partitionBits: 5 }))).toBe(
      GETH_ROOT_3K,
    );
  });

  it("equals the single-threaded tree for any key set, thread count and partition depth", async () => {
    // Keys from a few prefixes so partitions are empty, hold one stem, or many; some keys share
    // a stem, some repeat (the later value wins).
    const prefixes = [0x00, 0x01, 0x80, 0xff];
    const key = fc
      .tuple(
        fc.constantFrom(...prefixes),
        fc.uint8Array({ minLength: 31, maxLength: 31 }),
        fc.boolean(),
      )
      .map(([top, rest, sameStem]) => {
        const k = new Uint8Array(32);
        k[0] = top;
        k.set(rest.subarray(0, 30), 1);
        k[31] = sameStem ? 0 : rest[30]!;
        return k;
      });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(key, fc.uint8Array({ minLength: 32, maxLength: 32 })), {
          maxLength: 200,
        }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 12 }),
        async (entries, threads, partitionBits) => {
          const keys = new Uint8Array(entries.length * 32);
          const values = new Uint8Array(entries.length * 32);
          entries.forEach(([k, v], i) => {
            keys.set(k, i * 32);
            values.set(v, i * 32);
          });
          const timings = {} as ParallelRootTimings;
          const root = await parallelRoot(keys, values, { threads, partitionBits, timings });
          expect(hex(root)).toBe(singleThreadRoot(keys, values));
          if (threads > 1) {
            // Every worker took part (each starts with a unit of its own), together all entries.
            const each = timings.threads;
            expect(each.length).toBeLessThanOrEqual(threads);
            for (const t of each.slice(1)) expect(t.units).toBeGreaterThan(0);
            expect(each.reduce((sum, t) => sum + t.entries, 0)).toBe(entries.length);
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it("gives every concurrent call its own workers", async () => {
    const inputs = [300, 2000, 5000].map((n) => sharedWorkload(n));
    const roots = await Promise.all(
      inputs.map(({ keys, values }) => parallelRoot(keys, values, { threads: 3 })),
    );
    roots.forEach((root, i) => {
      expect(hex(root)).toBe(singleThreadRoot(inputs[i]!.keys, inputs[i]!.values));
    });
  });

  it("lays each call out in the last call's buffer, never in one a running call holds", async () => {
    const pool = new PartitionWorkerPool(
      new URL("../dist/node/partition-worker.js", import.meta.url),
      2,
    );
    const setup = { threads: 2, k: 8, scheme: "sha256-be", hasher: getHasher("sha256") } as const;
    try {
      const big = sharedWorkload(3000);
      const small = sharedWorkload(1600);
      expect(hex(await rootOnThreads(pool, {}, big.keys, big.values, setup))).toBe(
        singleThreadRoot(big.keys, big.values),
      );
      expect(pool.entries.size).toBe(3000 * 64);
      // Reused (within twice the need): the small call reads none of the big call's stale entries.
      expect(hex(await rootOnThreads(pool, {}, small.keys, small.values, setup))).toBe(
        singleThreadRoot(small.keys, small.values),
      );
      expect(pool.entries.size).toBe(3000 * 64);
      // Concurrent calls: one takes the spare, the other lays out in a buffer of its own.
      const [a, b] = await Promise.all([
        rootOnThreads(pool, {}, big.keys, big.values, setup),
        rootOnThreads(pool, {}, small.keys, small.values, setup),
      ]);
      expect([hex(a), hex(b)]).toEqual([
        singleThreadRoot(big.keys, big.values),
        singleThreadRoot(small.keys, small.values),
      ]);
      // A call more than twice smaller allocates its own and keeps that instead.
      const tiny = sharedWorkload(700);
      await rootOnThreads(pool, {}, tiny.keys, tiny.values, setup);
      expect(pool.entries.size).toBe(700 * 64);
    } finally {
      await pool.close();
    }
    expect(pool.entries.size).toBe(0);
  });

  for (const mode of ["reply", "throw", "exit"]) {
    it(`rejects with WORKER_FAILED and ends the worker when it fails (${mode})`, async () => {
      const script = new URL(
        `./fixtures/failing-partition-worker.mjs?mode=${mode}`,
        import.meta.url,
      );
      const pool = new PartitionWorkerPool(script, 4);
      const { keys, values } = sharedWorkload(3000);
      const setup = { threads: 3, k: 8, scheme: "sha256-be", hasher: getHasher("sha256") } as const;
      for (let call = 0; call < 2; call++) {
        const failure = await rootOnThreads(pool, {}, keys, values, setup).catch((e: unknown) => e);
        expect(failure).toMatchObject({ name: "TreeError", code: "WORKER_FAILED" });
        // Dropped, never lent again: the next call starts workers of its own.
        expect(pool.size).toBe(0);
        await pool.drained();
      }
      // The real workers still serve.
      expect(hex(await parallelRoot(keys, values, { threads: 3 }))).toBe(
        singleThreadRoot(keys, values),
      );
    });
  }

  it("rejects bad input with TreeError codes", async () => {
    await expect(parallelRoot(new Uint8Array(31), new Uint8Array(31))).rejects.toMatchObject({
      code: "INVALID_KEY",
    });
    await expect(parallelRoot(new Uint8Array(32), new Uint8Array(0))).rejects.toMatchObject({
      code: "INVALID_VALUE",
    });
    await expect(
      parallelRoot(new Uint8Array(32), new Uint8Array(32), { threads: 0 }),
    ).rejects.toMatchObject({ code: "INVALID_OPTION" });
    await expect(
      parallelRoot(new Uint8Array(32), new Uint8Array(32), { partitionBits: 17 }),
    ).rejects.toMatchObject({ code: "INVALID_OPTION" });
  });
});
