import { expect, it } from "vitest";
import { createIdbStore } from "../src/index.js";
import { SHARED_ROOTS } from "./shared-roots.js";
import { runStoreBench } from "./store-bench.js";

const N = 100_000;

it(`IdbStore (Chromium's IndexedDB) on the ${N}-key shared workload`, async () => {
  const database = `bintrie-bench-${Date.now()}`;
  const result = await runStoreBench({
    label: "IdbStore (Chromium)",
    n: N,
    open: async () => createIdbStore({ database, storeName: "nodes" }),
  });
  console.log(result.lines.join("\n"));
  expect(result.mismatches).toBe(0);
  expect(result.rootAfterInsert).toBe(SHARED_ROOTS[N]!.insert);
  expect(result.rootAfterUpdates).toBe(SHARED_ROOTS[N]!.updates);
});
