import { defineProject } from "vitest/config";

// Generous limits: they catch hangs, not slowness (a loaded 2-core CI machine runs property
// tests several times slower than an idle one).
const TIMEOUTS = { testTimeout: 60_000, hookTimeout: 60_000 };

export default defineProject({
  test: { name: "store-testkit", include: ["test/**/*.test.ts"], environment: "node", ...TIMEOUTS },
});
