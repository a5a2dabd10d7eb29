import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "testnet", include: ["test/**/*.test.ts"], environment: "node" },
});
