import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type T8nInput, transition } from "../src/t8n/transition.js";
import { OpcodeCounts } from "../src/trace/opcode-counts.js";
import { runBuilt, t8nInputFlags } from "./cli-process.js";
import { dataPath } from "./test-data.js";

/** The geth transitions of geth-traces (their inputs), and geth's counts of eight of them. */
interface TraceCase {
  readonly name: string;
  readonly fork: string;
  readonly alloc: T8nInput["alloc"];
  readonly env: T8nInput["env"];
  readonly txs: T8nInput["txs"];
}
const CASES = JSON.parse(
  readFileSync(dataPath("geth-traces/cases.json"), "utf8"),
) as readonly TraceCase[];
const COUNTS = JSON.parse(
  readFileSync(dataPath("geth-opcode-counts/counts.json"), "utf8"),
) as Readonly<Record<string, string>>;
const dir = mkdtempSync(join(tmpdir(), "bintrie-testnet-opcode-counts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function caseNamed(name: string): TraceCase {
  const found = CASES.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no geth-traces case ${name}`);
  return found;
}

describe("t8n --opcode.count: geth's opcode counts, byte for byte", () => {
  it("has geth's files for cases with system calls, UBT networks and failing instructions", () => {
    expect(Object.keys(COUNTS)).toHaveLength(8);
    // The Prague and Osaka ones count the system contracts' code (TIMESTAMP, CALLER, SLOAD…).
    expect(COUNTS.bls12381_decoding_Prague).toContain('"TIMESTAMP": 2');
  });

  it.each(Object.keys(COUNTS))("%s", async (name) => {
    const c = caseNamed(name);
    const counts = new OpcodeCounts();
    await transition({
      alloc: c.alloc,
      env: c.env,
      txs: c.txs,
      fork: c.fork,
      opcodeCounts: counts,
    });
    expect(counts.toJson()).toBe(COUNTS[name]);
  });

  it("the CLI writes the file under --output.basedir, beside a trace", () => {
    const c = caseNamed("call_frames_Cancun");
    for (const part of ["alloc", "env", "txs"] as const) {
      writeFileSync(join(dir, `${part}.json`), JSON.stringify(c[part]));
    }
    const ran = runBuilt([
      "t8n",
      ...t8nInputFlags(dir),
      "--state.fork",
      c.fork,
      "--output.basedir",
      join(dir, "out"),
      "--opcode.count",
      "counts.json",
      "--trace",
    ]);
    expect(ran.status).toBe(0);
    expect(readFileSync(join(dir, "out", "counts.json"), "utf8")).toBe(COUNTS.call_frames_Cancun);
    expect(ran.stderr).toMatch(/wrote .*counts\.json/);
    // The trace (its own switch) is written as before.
    expect(readdirSync(join(dir, "out")).filter((f) => f.startsWith("trace-"))).toHaveLength(
      c.txs.length,
    );
  });
});
