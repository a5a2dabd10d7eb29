import { expect } from "vitest";
import { SHARED_ROOTS } from "./shared-roots.js";
import type { StoreBenchResult } from "./store-bench.js";

/**
 * Prints a benchmark's lines and checks its answers: no value read back differs, and where the
 * shared workload's roots for `n` keys are known, both roots match them.
 */
export function expectStoreBench(result: StoreBenchResult, n: number): void {
  console.log(result.lines.join("\n"));
  expect(result.mismatches).toBe(0);
  const expected = SHARED_ROOTS[n];
  if (expected !== undefined) {
    expect(result.rootAfterInsert).toBe(expected.insert);
    expect(result.rootAfterUpdates).toBe(expected.updates);
  }
}
