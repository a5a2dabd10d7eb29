import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      "packages/*/vitest*.config.ts",
      "apps/*/vitest*.config.ts",
      "scripts/readme-blocks/vitest.config.ts",
    ],
  },
});
