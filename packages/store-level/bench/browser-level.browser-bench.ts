import { runStoreBench } from "@bintrie/store-testkit";
import { expectStoreBench } from "@bintrie/store-testkit/vitest";
import { it } from "vitest";
import { openLevelStore } from "../src/index.js";

const N = 100_000;

it(`LevelStore (browser-level on Chromium's IndexedDB) on the ${N}-key shared workload`, async () => {
  const location = `bintrie-bench-${Date.now()}`;
  const result = await runStoreBench({
    label: "browser-level (Chromium)",
    n: N,
    open: () => openLevelStore(location),
  });
  expectStoreBench(result, N);
});
