import { readdirSync, readFileSync, statSync } from "node:fs";
import { expect } from "vitest";
import { dataPath } from "./test-data.js";

/**
 * geth's `evm t8n` outputs for the example scenarios vendored in test/data/geth-ubt/t8n (see
 * its PROVENANCE.md): each scenario's inputs, and geth's result.json and alloc.json under
 * `out-<fork>/` for Shanghai, Verkle, Osaka and Binary.
 */
const ROOT = dataPath("geth-ubt/t8n");

export const UBT_T8N_SCENARIOS = readdirSync(ROOT).filter((name) =>
  statSync(`${ROOT}/${name}`).isDirectory(),
);

/** One of a scenario's files, parsed. */
export function readUbtT8n(scenario: string, file: string): unknown {
  return JSON.parse(readFileSync(`${ROOT}/${scenario}/${file}`, "utf8"));
}

/** The prestate geth's run had: Osaka and Binary need the Prague system contracts. */
export function ubtT8nAllocFile(fork: string): string {
  return fork === "Osaka" || fork === "Binary" ? "alloc_sys.json" : "alloc.json";
}

/**
 * Asserts a transition's result and alloc (as JSON values) equal geth's for the scenario. On
 * the MPT forks (Shanghai, Osaka) geth's stateRoot is an MPT root and ours the binary root: there
 * ours is only checked to be a hash.
 */
export function expectGethUbtT8n(
  scenario: string,
  fork: string,
  output: { readonly result: unknown; readonly alloc: unknown },
): void {
  const expected = readUbtT8n(scenario, `out-${fork}/result.json`) as Record<string, unknown>;
  const result = { ...(output.result as Record<string, unknown>) };
  if (fork === "Shanghai" || fork === "Osaka") {
    expect(result.stateRoot).toMatch(/^0x[0-9a-f]{64}$/);
    delete result.stateRoot;
    delete expected.stateRoot;
  }
  expect(result).toEqual(expected);
  expect(output.alloc).toEqual(readUbtT8n(scenario, `out-${fork}/alloc.json`));
}
