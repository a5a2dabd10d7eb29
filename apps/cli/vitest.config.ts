import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "cli",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // Each test spawns the binary several times; a busy 2-core machine makes spawns slow.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
