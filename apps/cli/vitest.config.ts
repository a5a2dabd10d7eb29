import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "cli",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // Tests spawn the built binary; a busy 2-core machine makes each spawn slower.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
