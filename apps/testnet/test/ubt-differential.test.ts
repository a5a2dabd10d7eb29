import { execFile } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { transition } from "../src/t8n/transition.js";
import { t8nInputFlags } from "./cli-process.js";
import { GETH_EVM } from "./geth-tools.js";
import { dataPath } from "./test-data.js";

/**
 * Differential runs against geth's `evm t8n`: a transaction mix drawn from the example
 * scenarios' transactions (all contracts in one alloc, one sender, consecutive nonces, random
 * order, values and gas limits — some run out of gas), executed by geth and by `transition`;
 * result.json and alloc.json must be equal as JSON values. The 12 fixed mixes per fork (the
 * property's seeds) are vendored with geth's outputs (data/geth-ubt/t8n-mixes, see
 * PROVENANCE.md) and run everywhere; with GETH_EVM naming geth's evm they also run live, and
 * UBT_DIFF_RUNS=N then runs N fresh ones.
 */
/** geth tools run asynchronously: a blocking child would stall the test worker. */
const run = promisify(execFile);
const ROOT = dataPath("geth-ubt/t8n");
// The 11 example scenarios the mixes were made from (their merged alloc is every mix's input);
// scenarios added later (l_create_init_oog) are checked on their own in ubt-t8n.test.ts.
const MADE_LATER = new Set(["l_create_init_oog"]);
const SCENARIOS = readdirSync(ROOT).filter(
  (name) => statSync(`${ROOT}/${name}`).isDirectory() && !MADE_LATER.has(name),
);
const read = (scenario: string, file: string): unknown =>
  JSON.parse(readFileSync(`${ROOT}/${scenario}/${file}`, "utf8"));

type Tx = Record<string, string | unknown[] | undefined>;
const TEMPLATES: Tx[] = SCENARIOS.flatMap((s) => read(s, "txs.json") as Tx[]);
const ENV = read("c_create", "env.json");
function mergedAlloc(file: string): Record<string, unknown> {
  const alloc: Record<string, unknown> = {};
  for (const s of SCENARIOS) Object.assign(alloc, read(s, file) as Record<string, unknown>);
  return alloc;
}

const scratch = mkdtempSync(join(tmpdir(), "bintrie-testnet-diff-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let runs = 0;

async function gethT8n(
  evm: string,
  fork: string,
  alloc: unknown,
  txs: unknown,
): Promise<{ result: unknown; alloc: unknown }> {
  const dir = join(scratch, `run-${runs++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "alloc.json"), JSON.stringify(alloc));
  writeFileSync(join(dir, "env.json"), JSON.stringify(ENV));
  writeFileSync(join(dir, "txs.json"), JSON.stringify(txs));
  await run(evm, [
    "t8n",
    ...t8nInputFlags(dir),
    "--state.fork",
    fork,
    "--output.basedir",
    dir,
    "--output.result",
    "result.json",
    "--output.alloc",
    "out-alloc.json",
  ]);
  return {
    result: JSON.parse(readFileSync(join(dir, "result.json"), "utf8")),
    alloc: JSON.parse(readFileSync(join(dir, "out-alloc.json"), "utf8")),
  };
}

const mix = fc.array(
  fc.record({
    template: fc.integer({ min: 0, max: TEMPLATES.length - 1 }),
    value: fc.constantFrom("keep", "0x0", "0x7"),
    gas: fc.constantFrom("keep", "0x5208", "0xc350", "0x186a0"),
  }),
  { minLength: 1, maxLength: 6 },
);

function transactions(picks: { template: number; value: string; gas: string }[]): Tx[] {
  return picks.map((p, nonce) => {
    const t = { ...TEMPLATES[p.template]! };
    t.nonce = `0x${nonce.toString(16)}`;
    if (p.value !== "keep") t.value = p.value;
    if (p.gas !== "keep") t.gas = p.gas;
    return t;
  });
}

/** Our transition of `txs` on the merged alloc of `fork`, as JSON values (geth's file form). */
async function ourT8n(
  fork: "Verkle" | "Binary",
  alloc: unknown,
  txs: unknown,
): Promise<{ result: unknown; alloc: unknown }> {
  const ours = await transition({
    alloc: alloc as never,
    env: ENV as never,
    txs: txs as never,
    fork,
  });
  return {
    result: JSON.parse(JSON.stringify(ours.result)),
    alloc: JSON.parse(JSON.stringify(ours.alloc)),
  };
}

const allocOf = (fork: "Verkle" | "Binary") =>
  mergedAlloc(fork === "Binary" ? "alloc_sys.json" : "alloc.json");

describe("t8n gives geth's outputs on vendored transaction mixes", () => {
  it("reads the 11 scenarios the mixes were made from", () => {
    expect(SCENARIOS.length).toBe(11);
  });

  for (const fork of ["Verkle", "Binary"] as const) {
    const mixes = JSON.parse(readFileSync(dataPath(`geth-ubt/t8n-mixes/${fork}.json`), "utf8")) as {
      txs: Tx[];
      result: unknown;
      alloc: unknown;
    }[];
    it(`${fork}: ${mixes.length} mixes give geth's result.json and alloc.json`, async () => {
      expect(mixes.length).toBe(12);
      const alloc = allocOf(fork);
      for (const mixed of mixes) {
        const ours = await ourT8n(fork, alloc, mixed.txs);
        expect(ours.result).toEqual(mixed.result);
        expect(ours.alloc).toEqual(mixed.alloc);
      }
    });
  }
});

describe.runIf(GETH_EVM !== undefined)(
  "t8n against geth's evm t8n on generated transaction mixes",
  () => {
    for (const fork of ["Verkle", "Binary"] as const) {
      it(`${fork}: 12 mixes give geth's result.json and alloc.json`, async () => {
        const alloc = allocOf(fork);
        await fc.assert(
          fc.asyncProperty(mix, async (picks) => {
            const txs = transactions(picks);
            const geth = await gethT8n(GETH_EVM!, fork, alloc, txs);
            const ours = await ourT8n(fork, alloc, txs);
            expect(ours.result).toEqual(geth.result);
            expect(ours.alloc).toEqual(geth.alloc);
          }),
          // UBT_DIFF_RUNS=N runs N fresh mixes (random seed) instead of the 12 fixed ones.
          process.env.UBT_DIFF_RUNS === undefined
            ? { numRuns: 12, seed: fork === "Verkle" ? 4762 : 7864 }
            : { numRuns: Number(process.env.UBT_DIFF_RUNS) },
        );
      }, 600_000);
    }
  },
);
