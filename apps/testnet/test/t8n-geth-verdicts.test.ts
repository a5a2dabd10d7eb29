import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RLP } from "@ethereumjs/rlp";
import { bytesToHex, hexToBytes } from "@ethereumjs/util";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli/run-cli.js";
import { readCliFixture } from "./cli-process.js";

/**
 * geth's `evm t8n` verdict on inputs at the edges (cli-fixtures/PROVENANCE.md, `geth-cases.json`):
 * where geth gives a result, ours equals it (the binary stateRoot on UBT forks; on MPT forks all
 * but the root: before Byzantium also the receipts' MPT roots and so the receipts root); where
 * geth refuses the input, ours refuses it too, with geth's exit code (10 JSON,
 * 3 config, 2 EVM, 4 a missing block hash; 10 where geth panics on the input) and one line naming
 * the file and the field.
 */
interface GethCase {
  readonly fork: string;
  readonly input: "files" | "stdin";
  readonly alloc: unknown;
  /** The alloc file's text where JSON values cannot hold it (bare numbers past 2^53, `1e21`). */
  readonly allocText?: string;
  readonly env: unknown;
  readonly txs?: unknown;
  readonly txsRlp?: string;
  readonly mentions: readonly string[];
  readonly geth: { status: number; error?: string; result?: unknown; alloc?: unknown };
  /**
   * Our exit status where geth panics inside its EVM rather than in its decoding (a failing
   * EIP-2935 system call): an EVM error, geth's code 2 for one, and no result.
   */
  readonly oursStatus?: number;
  /** More command-line flags, given to both tools (`--state.reward -1`, `--state.chainid N`). */
  readonly flags?: readonly string[];
}
const CASES = readCliFixture<Record<string, GethCase>>("t8n/geth-cases.json");
const UBT_FORKS = new Set(["Verkle", "Binary"]);
/** Inputs geth gives a result for and we refuse (each has its own test below). */
const REFUSED_HERE = new Set(["txs_rlp_truncated", "tx_value_call_mints_gas_after_burn"]);

const dir = mkdtempSync(join(tmpdir(), "bintrie-testnet-geth-cases-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The input file a refused case is about (alloc, env or txs), as its name starts. */
function faultyPart(name: string): "alloc" | "env" | "txs" {
  if (name.startsWith("env_") || name.startsWith("withdrawal")) return "env";
  if (name.startsWith("tx")) return "txs";
  return "alloc";
}

async function* textStream(text: string): AsyncIterable<string> {
  yield text;
}

async function runOurs(name: string, c: GethCase) {
  let out = "";
  let err = "";
  const base = join(dir, name);
  const files = {
    alloc: `${base}-alloc.json`,
    env: `${base}-env.json`,
    txs: c.txsRlp !== undefined ? `${base}-txs.rlp` : `${base}-txs.json`,
  };
  let args: string[];
  let stdin: string | undefined;
  if (c.input === "stdin") {
    args = ["--input.alloc", "stdin", "--input.env", "stdin", "--input.txs", "stdin"];
    stdin = JSON.stringify({ alloc: c.alloc, env: c.env, txs: c.txs });
  } else {
    writeFileSync(files.alloc, c.allocText ?? JSON.stringify(c.alloc));
    writeFileSync(files.env, JSON.stringify(c.env));
    writeFileSync(files.txs, JSON.stringify(c.txsRlp ?? c.txs));
    args = ["--input.alloc", files.alloc, "--input.env", files.env, "--input.txs", files.txs];
  }
  const status = await runCli(
    [
      "t8n",
      ...args,
      "--state.fork",
      c.fork,
      "--output.result",
      "stdout",
      "--output.alloc",
      "stdout",
      ...(c.flags ?? []),
    ],
    {
      stdout: { write: (t: string) => (out += t) },
      stderr: { write: (t: string) => (err += t) },
      ...(stdin === undefined ? {} : { stdin: textStream(stdin) }),
    },
  );
  return { status, out, err, files };
}

describe("t8n at the edges: geth's verdicts (geth-cases.json)", () => {
  for (const [name, c] of Object.entries(CASES)) {
    if (REFUSED_HERE.has(name)) continue;
    const verdict = c.geth.status === 0 ? "result" : `refused (geth exit ${c.geth.status})`;
    it(`${name} under ${c.fork}: ${verdict}`, async () => {
      const ours = await runOurs(name, c);
      if (c.geth.status === 0) {
        expect(ours.err).not.toMatch(/Error|at /);
        expect(ours.status).toBe(0);
        const output = JSON.parse(ours.out) as { result: Record<string, unknown>; alloc: unknown };
        const expected = { ...(c.geth.result as Record<string, unknown>) };
        if (!UBT_FORKS.has(c.fork)) {
          delete expected.stateRoot;
          delete output.result.stateRoot;
        }
        expect(output.result).toEqual(expected);
        expect(output.alloc).toEqual(c.geth.alloc);
        return;
      }
      expect(ours.out).toBe("");
      // geth's Go runtime exits 2 on a panic: the input is one its decoding should refuse.
      expect(ours.status).toBe(
        c.oursStatus ?? (c.geth.error?.startsWith("panic:") ? 10 : c.geth.status),
      );
      expect(ours.err).toMatch(/^bintrie-testnet t8n: [^\n]+\n$/);
      expect(ours.err).not.toMatch(/TypeError|=>|function|\bat [\w.]+ \(/);
      const file = c.input === "stdin" ? "stdin" : ours.files[faultyPart(name)];
      expect(ours.err).toContain(file);
      for (const word of c.mentions) expect(ours.err.toLowerCase()).toContain(word.toLowerCase());
    });
  }

  it("a transaction that mints gas (EIP-4762 value call) and pays a tip is refused where geth wraps its gas used around 2^64 and pays the tip on it", async () => {
    const c = CASES.tx_value_call_mints_gas_after_burn!;
    // What geth printed: the second transaction's gas used wrapped (0xffffffffffde364b), and
    // the coinbase paid 999999993 wei per gas of it (the same block with no tip is a verdict
    // above, tx_value_call_mints_gas_no_tip_after_burn, which ours equals).
    const receipts = (c.geth.result as { receipts: { gasUsed: string }[] }).receipts;
    expect(BigInt(receipts[1]!.gasUsed)).toBeGreaterThan(2n ** 63n);
    const ours = await runOurs("tx_value_call_mints_gas_after_burn", c);
    expect(ours.status).toBe(2);
    expect(ours.out).toBe("");
    expect(ours.err).toMatch(
      /^bintrie-testnet t8n: [^\n]*-txs\.json: tx 1: [^\n]*minted 2235325 gas[^\n]*tip of 999999993 wei[^\n]*\n$/,
    );
  });

  it("a txs.rlp list geth's t8n reads forever is refused, naming the transaction", async () => {
    // rlp_legacy_s_leading_zero's list with its first (legacy) transaction's S restored and a
    // zero byte before its (empty) nonce instead: the nonce is then the byte 0x00, which geth's
    // uint64 decoding refuses while it keeps the value's header as the next one to read, so it
    // reads it as a transaction (index 1: too short) again and again (its evm was seen running
    // past 10 s on this list, and on 86 of 900 mutated lists — Prague, London, Frontier,
    // Binary — each of which this command refuses so).
    const c = CASES.rlp_legacy_s_leading_zero!;
    const [first, ...rest] = RLP.decode(hexToBytes(c.txsRlp as `0x${string}`)) as Uint8Array[][];
    const fields = [...first!];
    fields[8] = fields[8]!.subarray(1);
    fields[0] = Uint8Array.of(0, ...fields[0]!);
    expect(fields[1]).toEqual(Uint8Array.of(0x10));
    const txsRlp = bytesToHex(RLP.encode([fields, ...rest]));
    const ours = await runOurs("rlp_legacy_read_forever", { ...c, txsRlp });
    expect(ours.status).toBe(12);
    expect(ours.out).toBe("");
    expect(ours.err).toMatch(
      /^bintrie-testnet t8n: [^\n]*-txs\.rlp: transaction 1: geth's t8n refuses this value and reads it again, without end[^\n]*\n$/,
    );
  });

  it("a truncated txs.rlp is refused naming the file (geth reads it as no transactions)", async () => {
    const ours = await runOurs("txs_rlp_truncated", CASES.txs_rlp_truncated!);
    // geth's code for RLP it cannot decode (ErrorRlp).
    expect(ours.status).toBe(12);
    expect(ours.err).toMatch(/^bintrie-testnet t8n: [^\n]*-txs\.rlp[^\n]*\n$/);
    expect(ours.err).not.toMatch(/TypeError/);
  });
});
