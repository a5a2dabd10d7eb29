import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "codec", include: ["test/**/*.test.ts"], environment: "node" },
});
