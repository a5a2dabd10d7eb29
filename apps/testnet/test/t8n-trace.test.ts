import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TestnetError } from "../src/chain/testnet-error.js";
import { T8N_EXIT_IO } from "../src/t8n/t8n-exit-codes.js";
import { TraceFiles } from "../src/t8n/trace-files.js";
import { type T8nInput, transition } from "../src/t8n/transition.js";
import type { OpcodeTraceOptions } from "../src/trace/opcode-trace.js";
import { runBuilt } from "./cli-process.js";
import { dataPath } from "./test-data.js";

/**
 * geth's own `evm t8n --trace` output for random contracts (test/data/geth-traces/PROVENANCE.md):
 * calls of every kind, creations, reverts, invalid and undefined opcodes, stack and gas
 * failures, memory past 64 bits, RETURNDATACOPY past the data, SELFDESTRUCT, on forks from
 * Istanbul to Osaka, Binary and Verkle.
 */
interface TraceCase {
  readonly name: string;
  readonly fork: string;
  readonly flags: readonly string[];
  readonly alloc: T8nInput["alloc"];
  readonly env: T8nInput["env"];
  readonly txs: T8nInput["txs"];
  /** geth's trace files by name. */
  readonly traces: Readonly<Record<string, string>>;
}

const CASES = JSON.parse(
  readFileSync(dataPath("geth-traces/cases.json"), "utf8"),
) as readonly TraceCase[];
const dir = mkdtempSync(join(tmpdir(), "bintrie-testnet-trace-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function optionsOf(flags: readonly string[]): OpcodeTraceOptions {
  return {
    memory: flags.includes("--trace.memory"),
    noStack: flags.includes("--trace.nostack"),
    returnData: flags.includes("--trace.returndata"),
    callFrames: flags.includes("--trace.callframes"),
  };
}

/** The trace files a transition wrote into `out`, by name. */
function traceFiles(out: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(out).sort()) {
    if (name.startsWith("trace-")) files[name] = readFileSync(join(out, name), "utf8");
  }
  return files;
}

async function traced(c: TraceCase, out: string) {
  mkdirSync(out, { recursive: true });
  const sink = new TraceFiles(out);
  const output = await transition({
    alloc: c.alloc,
    env: c.env,
    txs: c.txs,
    fork: c.fork,
    trace: { sink, options: optionsOf(c.flags) },
  });
  return { output, files: traceFiles(out) };
}

describe("t8n --trace: geth's JSON opcode trace, byte for byte", () => {
  it("holds cases from every fork it was made on, with the failures geth words", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(44);
    expect(new Set(CASES.map((c) => c.fork))).toStrictEqual(
      new Set([
        "Istanbul",
        "Berlin",
        "London",
        "Shanghai",
        "Cancun",
        "Prague",
        "Osaka",
        "Binary",
        "Verkle",
      ]),
    );
    const text = CASES.flatMap((c) => Object.values(c.traces)).join("\n");
    for (const words of [
      "execution reverted",
      "stack underflow (0 \\u003c=\\u003e 1)",
      "out of gas: out of gas",
      "return data out of bounds",
      "gas uint64 overflow",
      "invalid jump destination",
      "invalid opcode: opcode 0xc not defined",
      '"opName":"SELFDESTRUCT"',
      '"memory":"0x',
      '"returnData":"0x',
      '"stack":null',
      // Precompiles' own words (the library's differ).
      "bad elliptic curve pairing size",
      "point is not on curve",
      "invalid fp.Element encoding",
      "invalid point: not on curve",
      "one or more of base/exponent/modulus length exceeded 1024 bytes",
      "point is not in correct subgroup",
      "invalid field element top bytes",
      "g1 point is not on correct subgroup",
      "g2 point is not on correct subgroup",
      "error verifying kzg proof: invalid compressed coordinate: square root doesn't exist",
      // Call frames (--trace.callframes), with their input (--trace.memory).
      '"value":null,"type":"STATICCALL"}',
      '"type":"CREATE2"}',
      '"gas":"0x0","value":"0x5","type":"SELFDESTRUCT"}',
      '"input":"0x11223344"',
    ]) {
      expect(text).toContain(words);
    }
  });

  it.each(CASES.map((c) => [c.name, c] as const))(
    "%s: the same files, line for line",
    async (name, c) => {
      const { files } = await traced(c, join(dir, name));
      expect(Object.keys(files)).toStrictEqual(Object.keys(c.traces).sort());
      for (const [file, text] of Object.entries(c.traces)) {
        // Line by line first (a failure names the line), then the whole text.
        expect(files[file]!.split("\n")).toStrictEqual(text.split("\n"));
        expect(files[file]).toBe(text);
      }
    },
  );

  it("tracing changes nothing the transition computes (REVERT with operands past 2^64 too)", async () => {
    // The library's step hook reads REVERT's memory operands before their gas is charged.
    const c = CASES.find((k) => k.name === "seed38_Osaka")!;
    expect(c.traces[Object.keys(c.traces)[0]!]).toContain("gas uint64 overflow");
    const plain = await transition({ alloc: c.alloc, env: c.env, txs: c.txs, fork: c.fork });
    const { output } = await traced(c, join(dir, "unchanged"));
    expect(output).toStrictEqual(plain);
    expect(plain.result.receipts.length).toBe(1);
  });

  it("the CLI's --trace flags write the files under --output.basedir; without --trace none", () => {
    const c = CASES.find((k) => k.flags.includes("--trace.memory"))!;
    const inputs = join(dir, "cli-inputs");
    mkdirSync(inputs, { recursive: true });
    for (const part of ["alloc", "env", "txs"] as const) {
      writeFileSync(join(inputs, `${part}.json`), JSON.stringify(c[part]));
    }
    const args = (out: string) => [
      "t8n",
      ...["--input.alloc", join(inputs, "alloc.json"), "--input.env", join(inputs, "env.json")],
      ...["--input.txs", join(inputs, "txs.json"), "--state.fork", c.fork],
      ...["--output.basedir", out, "--output.result", "result.json", "--output.alloc", ""],
    ];
    const out = join(dir, "cli-traced");
    const ran = runBuilt([...args(out), ...c.flags]);
    expect(ran.stderr).toMatch(/^t8n /);
    expect(ran.status).toBe(0);
    expect(traceFiles(out)).toStrictEqual(c.traces);
    const plain = join(dir, "cli-plain");
    expect(runBuilt(args(plain)).status).toBe(0);
    expect(Object.keys(traceFiles(plain))).toStrictEqual([]);
    expect(readFileSync(join(plain, "result.json"), "utf8")).toBe(
      readFileSync(join(out, "result.json"), "utf8"),
    );
  });

  it("a trace file it cannot create is t8n's output fault (exit 11), naming the file", () => {
    const files = new TraceFiles(join(dir, "no-such-dir", "deeper"));
    let caught: unknown;
    try {
      files.begin(new Uint8Array(32));
    } catch (cause) {
      caught = cause;
    }
    expect(caught).toBeInstanceOf(TestnetError);
    const fault = caught as TestnetError;
    expect(fault.code).toBe("INVALID_OUTPUT");
    expect(fault.gethExitCode).toBe(T8N_EXIT_IO);
    expect(fault.message).toContain(
      `trace-0-0x${"00".repeat(32)}.jsonl: cannot create it (ENOENT)`,
    );
  });

  it("numbers the files by the transactions that reached execution, writing none for an unknown hash", () => {
    const out = join(dir, "numbering");
    mkdirSync(out, { recursive: true });
    const files = new TraceFiles(out);
    files.begin(new Uint8Array(32).fill(1));
    files.line("{}");
    files.begin(undefined);
    files.end();
    files.begin(new Uint8Array(32).fill(2));
    files.end();
    expect(Object.keys(traceFiles(out))).toStrictEqual([
      `trace-0-0x${"01".repeat(32)}.jsonl`,
      `trace-2-0x${"02".repeat(32)}.jsonl`,
    ]);
    expect(traceFiles(out)[`trace-0-0x${"01".repeat(32)}.jsonl`]).toBe("{}\n");
  });

  it("a trace write that fails (disk full) ends the transition as an output fault, rejecting no transaction", async () => {
    const c = CASES.find((k) => k.name === "seed38_Osaka")!;
    const out = join(dir, "full");
    mkdirSync(out, { recursive: true });
    // The first trace file is /dev/full: its writes fail with ENOSPC.
    symlinkSync("/dev/full", join(out, Object.keys(c.traces)[0]!));
    const sink = new TraceFiles(out);
    await expect(
      transition({ alloc: c.alloc, env: c.env, txs: c.txs, fork: c.fork, trace: { sink } }),
    ).rejects.toMatchObject({
      code: "INVALID_OUTPUT",
      gethExitCode: T8N_EXIT_IO,
      message: expect.stringContaining("cannot write it (ENOSPC)"),
    });
  });
});
