import { chromiumBrowser } from "@bintrie/store-testkit/vitest-config";
import { defineProject } from "vitest/config";

// Generous limits: they catch hangs, not slowness (a loaded 2-core CI machine runs property
// tests and child processes several times slower than an idle one).
const TIMEOUTS = { testTimeout: 60_000, hookTimeout: 60_000 };

export default defineProject({
  test: {
    name: "store-idb-browser",
    include: ["test/browser/**/*.test.ts"],
    ...TIMEOUTS,
    browser: chromiumBrowser(),
  },
});
