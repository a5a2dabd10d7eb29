import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "store-idb",
    include: ["test/**/*.test.ts"],
    exclude: ["test/browser/**"],
    environment: "node",
  },
});
