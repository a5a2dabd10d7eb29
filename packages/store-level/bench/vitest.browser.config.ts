import { fileURLToPath } from "node:url";
import { chromiumBrowser } from "@bintrie/store-testkit/vitest-config";
import { defineProject } from "vitest/config";

// `pnpm bench`, browser half: the same benchmark on browser-level in headless Chromium.
export default defineProject({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    name: "store-level-bench-browser",
    include: ["bench/**/*.browser-bench.ts"],
    testTimeout: 600_000,
    browser: chromiumBrowser(),
  },
});
