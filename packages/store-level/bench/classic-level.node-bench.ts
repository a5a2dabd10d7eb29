import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runStoreBench } from "@bintrie/store-testkit";
import { expectStoreBench } from "@bintrie/store-testkit/vitest";
import { it } from "vitest";
import { openLevelStore } from "../src/index.js";

const N = Number(process.env.BENCH_N ?? 100_000);

for (const sync of [true, false]) {
  it(`LevelStore (classic-level, sync ${sync}) on the ${N}-key shared workload`, async () => {
    const dir = mkdtempSync(join(tmpdir(), "bintrie-level-bench-"));
    try {
      const result = await runStoreBench({
        label: `classic-level sync=${sync}`,
        n: N,
        open: () => openLevelStore(join(dir, "db"), { sync }),
      });
      expectStoreBench(result, N);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
