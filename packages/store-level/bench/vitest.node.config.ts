import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// `pnpm bench`: the store benchmarks, kept out of the default test run.
export default defineProject({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    name: "store-level-bench",
    include: ["bench/**/*.node-bench.ts"],
    environment: "node",
    testTimeout: 600_000,
  },
});
