import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BinaryTree, openTree } from "@bintrie/core";
import { hex, SHARED_ROOTS } from "@bintrie/store-testkit";
import { sharedWorkload } from "@bintrie/store-testkit/node";
import { expect, it } from "vitest";
import { type LevelStoreOptions, openLevelStore } from "../src/index.js";

const N = Number(process.env.BENCH_N ?? 100_000);
const RUNS = 5;

/**
 * `LevelStore.batch()` alone: one N-key commit's operations written into a fresh database,
 * RUNS times per setting; prints the median and every run, then checks the reopened root.
 */
it(`LevelStore.batch of one ${N}-key commit (median of ${RUNS} fresh databases)`, async () => {
  const { keys, values } = sharedWorkload(N);
  const tree = new BinaryTree();
  for (let i = 0; i < N; i++) tree.put(keys[i]!, values[i]!);
  const set = tree.commit();
  const operations = tree.nodeSetOperations(set);
  const settings: [string, LevelStoreOptions][] = [
    ["sync=true", { sync: true }],
    ["sync=false", { sync: false }],
    ["sync=true, prefix", { sync: true, prefix: "tree-a/" }],
  ];
  for (const [label, options] of settings) {
    const ms: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const dir = mkdtempSync(join(tmpdir(), "bintrie-level-batch-"));
      try {
        const store = await openLevelStore(join(dir, "db"), options);
        const start = performance.now();
        await store.batch(operations);
        ms.push(performance.now() - start);
        await store.close();
        const again = await openLevelStore(join(dir, "db"), options);
        expect(hex((await openTree(again)).hash())).toBe(hex(set.root));
        await again.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    const median = [...ms].sort((a, b) => a - b)[RUNS >> 1]!;
    console.log(
      `LevelStore.batch ${label} | ${operations.length} operations: median ${median.toFixed(0)} ms = ${Math.round(operations.length / median)}k ops/s (runs ${ms.map((t) => t.toFixed(0)).join(", ")})`,
    );
  }
  const expected = SHARED_ROOTS[N];
  if (expected !== undefined) expect(hex(set.root)).toBe(expected.insert);
});
