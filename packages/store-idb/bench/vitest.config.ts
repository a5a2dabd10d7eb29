import { fileURLToPath } from "node:url";
import { chromiumBrowser } from "@bintrie/store-testkit/vitest-config";
import { defineProject } from "vitest/config";

// `pnpm bench`: the store benchmark on real IndexedDB in headless Chromium (fake-indexeddb in
// Node is a test double, not a backend worth timing).
export default defineProject({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    name: "store-idb-bench",
    include: ["bench/**/*.browser-bench.ts"],
    testTimeout: 600_000,
    browser: chromiumBrowser(),
  },
});
