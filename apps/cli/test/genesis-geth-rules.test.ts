// `bintrie genesis` reads an alloc by go-ethereum's rules: geth's verdict on each case comes
// from running real geth's genesis (testdata/geth/genesis-alloc-rules.json).
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, runCli, tempDir, testdataPath } from "./helpers/run-cli.js";

interface RuleCase {
  readonly name: string;
  readonly alloc: string;
  readonly geth: string;
}

const { cases } = JSON.parse(
  readFileSync(testdataPath("geth/genesis-alloc-rules.json"), "utf8"),
) as { cases: RuleCase[] };
const rule = (name: string): RuleCase => cases.find((c) => c.name === name)!;

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

describe("bintrie genesis reads the alloc as geth does", () => {
  // Spellings geth reads that were refused before: 0X, null fields, JSON integers, and bare
  // numbers past 2^53 (read by their digits), under any spelling of the field name.
  for (const name of [
    "balance-0X",
    "code-0X",
    "addr-0X",
    "code-null",
    "st-val-null",
    "nonce-num",
    "bal-bignum",
    "bal-bare-max",
    "bal-bare-two-accounts",
    "bal-bare-escaped-key",
  ]) {
    it(`${name}: geth's root`, async () => {
      const { alloc, geth } = rule(name);
      expect(geth).toMatch(/^0x[0-9a-f]{64}$/);
      const file = join(dir, `${name}.json`);
      await writeFile(file, `{"alloc":${alloc}}`);
      const result = await runCli(["genesis", file, "--store", "memory"]);
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe(`${geth}\n`);
    });
  }

  // Spellings geth refuses that were accepted before (each got a root geth never computes).
  const refused: [string, string][] = [
    ["no-balance", "balance is missing"],
    ["balance-0x", 'balance: "0x" is not a hex or decimal quantity'],
    ["code-noprefix", 'code: "6000" is not 0x-prefixed hex bytes'],
    ["st-odd-val", 'storage[0x01]: "0x1" has an odd number of hex digits'],
    ["st-odd-key", 'storage key 0x1: "0x1" has an odd number of hex digits'],
    // Bare numbers geth refuses by their spelling (JSON.parse would read 1000 and 1).
    ["bal-exp", 'balance: "1e3" is not a hex or decimal quantity'],
    ["bal-bare-fraction-zero", 'balance: "1.0" is not a hex or decimal quantity'],
    ["nonce-bare-2^64", "nonce: 18446744073709551616 is above 2^64 - 1"],
  ];
  for (const [name, message] of refused) {
    it(`${name}: exit 2 naming the file, the account and the field; no database is made`, async () => {
      expect(rule(name).geth).toBe("refused");
      const file = join(dir, `${name}.json`);
      await writeFile(file, `{"alloc":${rule(name).alloc}}`);
      const db = join(dir, `${name}-db`);
      const result = await runCli(["genesis", file, "--db", db]);
      expect(result.stdout).toBe("");
      expect(lines(result.stderr)).toHaveLength(1);
      expect(result.stderr).toMatch(/^bintrie genesis: /);
      expect(result.stderr).toContain(
        `${name}.json: alloc[0x00000000000000000000000000000000000000aa].${message}`,
      );
      expect(result.code).toBe(2);
      expect(existsSync(db)).toBe(false);
    });
  }
});
