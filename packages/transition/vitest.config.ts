import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "transition", include: ["test/**/*.test.ts"], environment: "node" },
});
