import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "store-level",
    include: ["test/**/*.test.ts"],
    exclude: ["test/browser/**"],
    environment: "node",
    // The crash test spawns and kills 20 child processes; give it room on a busy 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
