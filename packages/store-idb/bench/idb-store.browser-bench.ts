import { runStoreBench } from "@bintrie/store-testkit";
import { expectStoreBench } from "@bintrie/store-testkit/vitest";
import { it } from "vitest";
import { createIdbStore } from "../src/index.js";

const N = 100_000;

it(`IdbStore (Chromium's IndexedDB) on the ${N}-key shared workload`, async () => {
  const database = `bintrie-bench-${Date.now()}`;
  const result = await runStoreBench({
    label: "IdbStore (Chromium)",
    n: N,
    open: async () => createIdbStore({ database, storeName: "nodes" }),
  });
  expectStoreBench(result, N);
});
