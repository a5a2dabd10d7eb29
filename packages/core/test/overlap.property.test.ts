// Property: any interleaving of the tree's async calls (issued without waiting, over a store
// with random latency that also rejects chosen batches) is some serial order — the call order —
// and the store ends holding exactly a fresh tree of the model's entries (runOverlapScenario).
import fc from "fast-check";
import { describe, it } from "vitest";
import {
  type OverlapScenario,
  runOverlapScenario,
  type ScenarioOp,
} from "../src/conformance/index.js";
import { MemoryStore } from "../src/index.js";

const KEY_SPACE = 160;
const RUNS = 15;

const key = fc.nat({ max: KEY_SPACE - 1 });
const value = fc.integer({ min: 1, max: 255 });
const op: fc.Arbitrary<ScenarioOp> = fc.oneof(
  fc.record({
    op: fc.constant("putMany" as const),
    entries: fc.array(fc.tuple(key, value), { minLength: 1, maxLength: 30 }),
  }),
  fc.record({
    op: fc.constant("getMany" as const),
    keys: fc.array(key, { minLength: 1, maxLength: 40 }),
  }),
  fc.record({
    op: fc.constant("deleteMany" as const),
    keys: fc.array(key, { minLength: 1, maxLength: 10 }),
  }),
  fc.record({ op: fc.constant("persist" as const), fail: fc.boolean() }),
  fc.record({ op: fc.constant("put" as const), key: key.map((k) => k + KEY_SPACE), value }),
  fc.constant({ op: "settle" as const }),
);

const configs: [string, Omit<OverlapScenario, "ops" | "seed">][] = [
  ["unbounded, g=5", { groupDepth: 5, initialKeys: 0, keySpace: KEY_SPACE, latencyMs: 2 }],
  [
    "maxNodes 30, g=3, reopened",
    { groupDepth: 3, maxNodes: 30, initialKeys: 120, keySpace: KEY_SPACE, latencyMs: 1 },
  ],
  [
    "maxBytes 12 KB, g=0, 'remove' deletions, reopened",
    {
      groupDepth: 0,
      maxBytes: 12_000,
      deletionMode: "remove",
      initialKeys: 120,
      keySpace: KEY_SPACE,
      latencyMs: 1,
    },
  ],
];

describe(`random interleavings are some serial order (${RUNS} runs per configuration)`, () => {
  for (const [name, config] of configs) {
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(op, { minLength: 1, maxLength: 16 }),
          fc.nat(),
          async (ops, seed) => {
            await runOverlapScenario(new MemoryStore(), { ...config, ops, seed });
          },
        ),
        { numRuns: RUNS },
      );
    }, 120_000);
  }
});
