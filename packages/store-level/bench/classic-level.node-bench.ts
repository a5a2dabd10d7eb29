import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { openLevelStore } from "../src/index.js";
import { SHARED_ROOTS } from "./shared-roots.js";
import { runStoreBench } from "./store-bench.js";

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
      console.log(result.lines.join("\n"));
      expect(result.mismatches).toBe(0);
      const expected = SHARED_ROOTS[N];
      if (expected !== undefined) {
        expect(result.rootAfterInsert).toBe(expected.insert);
        expect(result.rootAfterUpdates).toBe(expected.updates);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
