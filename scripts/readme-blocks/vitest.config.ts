import { defineProject } from "vitest/config";

// One type-check of every block, then one child process (or Chromium page) per block.
export default defineProject({
  test: {
    name: "readme-blocks",
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
