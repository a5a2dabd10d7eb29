import { defineProject } from "vitest/config";

// Generous limits: they catch hangs, not slowness (a loaded 2-core CI machine runs property
// tests several times slower than an idle one; vitest's default of 5 s left the slowest
// tests here with a margin of about 4x).
const TIMEOUTS = { testTimeout: 60_000, hookTimeout: 60_000 };

export default defineProject({
  test: { name: "transition", include: ["test/**/*.test.ts"], environment: "node", ...TIMEOUTS },
});
