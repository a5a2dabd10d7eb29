import type { TestnetError } from "../chain/testnet-error.js";
import { testLabel } from "../fixtures/test-filter.js";
import type { TestResult } from "../runner/run-blockchain-test.js";

/** One line (plus indented failures) per test, as `run` prints it. */
export function textResult(r: TestResult): string {
  const head = `${r.passed ? "PASS" : "FAIL"}  ${testLabel(r.file, r.name)}  [${r.network}${r.binaryFixture ? ", binary roots checked" : ""}]  genesis ${r.genesisRoot}  final ${r.finalRoot}  ${r.blocks} blocks  ${round(r.milliseconds, 1)} ms\n`;
  return head + r.failures.map((f) => `    ${f}\n`).join("");
}

/** One JSON line per test, as `run --json` prints it. */
export function jsonResult(r: TestResult): Record<string, unknown> {
  return {
    file: r.file,
    name: r.name,
    network: r.network,
    passed: r.passed,
    binaryFixture: r.binaryFixture,
    genesisRoot: r.genesisRoot,
    finalRoot: r.finalRoot,
    blockRoots: r.blockRoots,
    blocks: r.blocks,
    gasUsed: r.gasUsed.toString(),
    milliseconds: round(r.milliseconds, 3),
    failures: r.failures,
  };
}

/** A test that could not be loaded (its fixture failed the field check). */
export function textInvalid(file: string, name: string, error: TestnetError): string {
  return `FAIL  ${testLabel(file, name)}  [invalid fixture: ${error.code}]\n    ${error.message}\n`;
}

export function jsonInvalid(
  file: string,
  name: string,
  error: TestnetError,
): Record<string, unknown> {
  return {
    file,
    name,
    passed: false,
    error: { code: error.code, ...(error.field === undefined ? {} : { field: error.field }) },
    failures: [error.message],
  };
}

/** The result of a test whose execution threw. */
export function crashed(file: string, name: string, network: string, error: unknown): TestResult {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return {
    file,
    name,
    network,
    passed: false,
    binaryFixture: false,
    failures: [`crashed: ${typeof code === "string" ? `${code}: ` : ""}${message}`],
    mismatches: [],
    genesisRoot: "",
    finalRoot: "",
    blockRoots: [],
    blocks: 0,
    gasUsed: 0n,
    milliseconds: 0,
    blockMilliseconds: 0,
  };
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function formatRate(value: number): string {
  if (value >= 1e6) return `${round(value / 1e6, 2)} M`;
  if (value >= 1e3) return `${round(value / 1e3, 1)} k`;
  return String(value);
}
