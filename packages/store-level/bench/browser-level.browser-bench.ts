import { expect, it } from "vitest";
import { openLevelStore } from "../src/index.js";
import { SHARED_ROOTS } from "./shared-roots.js";
import { runStoreBench } from "./store-bench.js";

const N = 100_000;

it(`LevelStore (browser-level on Chromium's IndexedDB) on the ${N}-key shared workload`, async () => {
  const location = `bintrie-bench-${Date.now()}`;
  const result = await runStoreBench({
    label: "browser-level (Chromium)",
    n: N,
    open: () => openLevelStore(location),
  });
  console.log(result.lines.join("\n"));
  expect(result.mismatches).toBe(0);
  expect(result.rootAfterInsert).toBe(SHARED_ROOTS[N]!.insert);
  expect(result.rootAfterUpdates).toBe(SHARED_ROOTS[N]!.updates);
});
