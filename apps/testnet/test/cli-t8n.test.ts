import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cliFixture, readCliFixture, runBuilt } from "./cli-process.js";

const dir = mkdtempSync(join(tmpdir(), "bintrie-testnet-cli-t8n-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Json = Record<string, unknown>;
const INPUTS = ["alloc", "env", "txs"] as const;
const input = (name: (typeof INPUTS)[number]): string => cliFixture(`t8n/transfer/${name}.json`);
const FILES = [
  "--input.alloc",
  input("alloc"),
  "--input.env",
  input("env"),
  "--input.txs",
  input("txs"),
  "--state.fork",
  "Shanghai",
];
const COMBINED = JSON.stringify({
  alloc: readCliFixture("t8n/transfer/alloc.json"),
  env: readCliFixture("t8n/transfer/env.json"),
  txs: readCliFixture("t8n/transfer/txs.json"),
});
/** geth's own `evm t8n` outputs for these inputs (cli-fixtures/PROVENANCE.md). */
const GETH = {
  result: readCliFixture<Json>("t8n/transfer/geth-Shanghai/result.json"),
  alloc: readCliFixture<Record<string, Json>>("t8n/transfer/geth-Shanghai/alloc.json"),
  body: readCliFixture<string>("t8n/transfer/geth-Shanghai/body.json"),
};
/** Result fields that do not depend on how the state is stored (stateRoot does). */
const STATE_FREE = ["txRoot", "receiptsRoot", "logsHash", "logsBloom", "gasUsed", "currentBaseFee"];

/** An alloc with every quantity as a bigint and zero fields dropped (geth omits them). */
function normalized(alloc: Record<string, Json>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [address, account] of Object.entries(alloc)) {
    const storage = Object.entries((account.storage ?? {}) as Record<string, string>)
      .filter(([, v]) => BigInt(v) !== 0n)
      .map(([k, v]) => [BigInt(k), BigInt(v)]);
    out[address.toLowerCase()] = {
      balance: BigInt((account.balance as string) ?? 0),
      nonce: BigInt((account.nonce as string) ?? 0),
      code: ((account.code as string) ?? "0x").toLowerCase(),
      storage,
    };
  }
  return out;
}

/** Our output agrees with geth's on everything the state layout does not change. */
function expectGethOutcome(output: { result?: unknown; alloc?: unknown; body?: unknown }): void {
  const result = output.result as Json;
  for (const field of STATE_FREE)
    expect({ field, value: result[field] }).toEqual({ field, value: GETH.result[field] });
  expect(result.stateRoot).toMatch(/^0x[0-9a-f]{64}$/);
  expect(normalized(output.alloc as Record<string, Json>)).toEqual(normalized(GETH.alloc));
  if (output.body !== undefined) expect(output.body).toBe(GETH.body);
}

describe("bintrie-testnet t8n: geth's evm t8n I/O conventions (built CLI)", () => {
  it("--output.result stdout --output.alloc stdout: ONE JSON object {alloc, result} on stdout, no files", () => {
    const cwd = mkdtempSync(join(dir, "stdout-"));
    const ran = runBuilt(
      ["t8n", ...FILES, "--output.result", "stdout", "--output.alloc", "stdout"],
      { cwd },
    );
    expect(ran.status).toBe(0);
    const printed = JSON.parse(ran.stdout) as Json;
    expect(Object.keys(printed)).toEqual(["alloc", "result"]);
    expect(ran.stdout).toBe(`${JSON.stringify(printed, null, 2)}\n`);
    expectGethOutcome(printed);
    expect(readdirSync(cwd)).toEqual([]);
    expect(ran.stderr).toMatch(
      /^t8n Shanghai: 1 applied, 0 rejected, binary stateRoot 0x[0-9a-f]{64}\n$/,
    );
  });

  it("--output.body stdout joins the same object (keys alloc, body, result as geth orders them)", () => {
    const ran = runBuilt(
      [
        "t8n",
        ...FILES,
        "--output.result",
        "stdout",
        "--output.alloc",
        "stdout",
        "--output.body",
        "stdout",
      ],
      { cwd: dir },
    );
    expect(ran.status).toBe(0);
    const printed = JSON.parse(ran.stdout) as Json;
    expect(Object.keys(printed)).toEqual(["alloc", "body", "result"]);
    expectGethOutcome(printed);
  });

  it("stderr outputs: one JSON object on stderr (no summary line), stdout empty", () => {
    const ran = runBuilt(
      ["t8n", ...FILES, "--output.result", "stderr", "--output.alloc", "stderr"],
      { cwd: dir },
    );
    expect(ran.status).toBe(0);
    expect(ran.stdout).toBe("");
    const printed = JSON.parse(ran.stderr) as Json;
    expect(Object.keys(printed)).toEqual(["alloc", "result"]);
    expectGethOutcome(printed);
  });

  it("split: result to stdout, alloc to stderr, body to a file", () => {
    const basedir = join(dir, "split");
    const ran = runBuilt([
      "t8n",
      ...FILES,
      "--output.result",
      "stdout",
      "--output.alloc",
      "stderr",
      "--output.body",
      "body.json",
      "--output.basedir",
      basedir,
    ]);
    expect(ran.status).toBe(0);
    expect(Object.keys(JSON.parse(ran.stdout))).toEqual(["result"]);
    expect(Object.keys(JSON.parse(ran.stderr))).toEqual(["alloc"]);
    expect(JSON.parse(readFileSync(join(basedir, "body.json"), "utf8"))).toBe(GETH.body);
  });

  it("files go under --output.basedir (created, nested), as geth writes them", () => {
    const basedir = join(dir, "out", "nested");
    const ran = runBuilt([
      "t8n",
      ...FILES,
      "--output.basedir",
      basedir,
      "--output.result",
      "r.json",
      "--output.alloc",
      "a.json",
    ]);
    expect(ran.status).toBe(0);
    expect(ran.stdout).toBe("");
    expect(readdirSync(basedir).sort()).toEqual(["a.json", "r.json"]);
    const result = readFileSync(join(basedir, "r.json"), "utf8");
    expect(result).toBe(JSON.stringify(JSON.parse(result), null, 1));
    expectGethOutcome({
      result: JSON.parse(result),
      alloc: JSON.parse(readFileSync(join(basedir, "a.json"), "utf8")),
    });
    expect(ran.stderr).toContain(
      `; wrote ${join(basedir, "a.json")}, ${join(basedir, "r.json")}\n`,
    );
  });

  it("defaults: result.json and alloc.json in the working directory; an empty name writes nothing", () => {
    const cwd = mkdtempSync(join(dir, "defaults-"));
    expect(runBuilt(["t8n", ...FILES], { cwd }).status).toBe(0);
    expect(readdirSync(cwd).sort()).toEqual(["alloc.json", "result.json"]);
    const none = mkdtempSync(join(dir, "none-"));
    const ran = runBuilt(["t8n", ...FILES, "--output.result", "", "--output.alloc", ""], {
      cwd: none,
    });
    expect(ran.status).toBe(0);
    expect(ran.stdout).toBe("");
    expect(readdirSync(none)).toEqual([]);
  });

  it("--input.* stdin: the combined {alloc, env, txs} object from stdin", () => {
    const ran = runBuilt(
      [
        "t8n",
        "--input.alloc",
        "stdin",
        "--input.env",
        "stdin",
        "--input.txs",
        "stdin",
        "--state.fork",
        "Shanghai",
        "--output.result",
        "stdout",
        "--output.alloc",
        "stdout",
        "--output.body",
        "stdout",
      ],
      { input: COMBINED },
    );
    expect(ran.status).toBe(0);
    expectGethOutcome(JSON.parse(ran.stdout));
  });

  it("stdin for some inputs and files for the others; txsRlp for signed transactions", () => {
    const allocOnly = runBuilt(
      [
        "t8n",
        ...FILES,
        "--input.alloc",
        "stdin",
        "--output.result",
        "stdout",
        "--output.alloc",
        "stdout",
      ],
      { input: JSON.stringify({ alloc: readCliFixture("t8n/transfer/alloc.json") }) },
    );
    expect(allocOnly.status).toBe(0);
    expectGethOutcome(JSON.parse(allocOnly.stdout));
    const rlp = runBuilt(
      [
        "t8n",
        ...FILES,
        "--input.txs",
        "stdin",
        "--output.result",
        "stdout",
        "--output.alloc",
        "stdout",
      ],
      { input: JSON.stringify({ txsRlp: GETH.body }) },
    );
    expect(rlp.status).toBe(0);
    expectGethOutcome(JSON.parse(rlp.stdout));
  });

  it("a txs file ending in .rlp holds a JSON string of the RLP list", () => {
    const txs = join(dir, "txs.rlp");
    writeFileSync(txs, JSON.stringify(GETH.body));
    const ran = runBuilt([
      "t8n",
      ...FILES,
      "--input.txs",
      txs,
      "--output.result",
      "stdout",
      "--output.alloc",
      "stdout",
    ]);
    expect(ran.status).toBe(0);
    expectGethOutcome(JSON.parse(ran.stdout));
  });

  it("bad input exits 2 with one line naming it", () => {
    const stdinArgs = [
      "t8n",
      "--input.alloc",
      "stdin",
      "--input.env",
      "stdin",
      "--input.txs",
      "stdin",
      "--output.result",
      "stdout",
    ];
    const notJson = runBuilt(stdinArgs, { input: "{ nope" });
    expect(notJson.status).toBe(2);
    expect(notJson.stdout).toBe("");
    expect(notJson.stderr).toMatch(/^bintrie-testnet t8n: stdin: not JSON \(.*\)\n$/);
    expect(runBuilt(stdinArgs, { input: "[1]" }).stderr).toBe(
      'bintrie-testnet t8n: stdin: expected one JSON object {"alloc", "env", "txs"}\n',
    );
    expect(runBuilt(stdinArgs, { input: "{}" }).stderr).toBe(
      'bintrie-testnet t8n: stdin: the input object has no "env"\n',
    );
    const missing = join(dir, "missing-alloc.json");
    expect(runBuilt(["t8n", ...FILES, "--input.alloc", missing])).toMatchObject({
      status: 2,
      stderr: `bintrie-testnet t8n: ${missing}: cannot read it (ENOENT)\n`,
    });
    const rlpNotString = join(dir, "bad.rlp");
    writeFileSync(rlpNotString, "[]");
    expect(runBuilt(["t8n", ...FILES, "--input.txs", rlpNotString]).stderr).toBe(
      `bintrie-testnet t8n: ${rlpNotString}: expected a JSON string of hex RLP\n`,
    );
  });
});

/** The real geth `evm` next to the workspace (absent on other machines: these tests then skip). */
const GETH_EVM = fileURLToPath(
  new URL("../../../../shared/tools/geth-evm/bin/evm", import.meta.url),
);

describe.runIf(existsSync(GETH_EVM))("the same I/O shapes as the real geth evm t8n", () => {
  function gethT8n(args: readonly string[], options: { cwd?: string; input?: string } = {}) {
    const ran = spawnSync(GETH_EVM, ["t8n", ...args], { ...options, encoding: "utf8" });
    return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
  }
  const OUTPUTS: readonly (readonly string[])[] = [
    ["--output.result", "stdout", "--output.alloc", "stdout"],
    ["--output.result", "stdout", "--output.alloc", "stdout", "--output.body", "stdout"],
    ["--output.result", "stdout", "--output.alloc", "", "--output.body", "stdout"],
    ["--output.alloc", "stdout", "--output.result", "r.json"],
  ];

  it("stdout objects: the same keys in the same order, the same state-free values", () => {
    for (const outputs of OUTPUTS) {
      const cwdGeth = mkdtempSync(join(dir, "geth-"));
      const cwdOurs = mkdtempSync(join(dir, "ours-"));
      const geth = gethT8n([...FILES, ...outputs], { cwd: cwdGeth });
      const ours = runBuilt(["t8n", ...FILES, ...outputs], { cwd: cwdOurs });
      expect({ outputs, status: ours.status }).toEqual({ outputs, status: geth.status });
      const g = JSON.parse(geth.stdout) as Json;
      const o = JSON.parse(ours.stdout) as Json;
      expect({ outputs, keys: Object.keys(o) }).toEqual({ outputs, keys: Object.keys(g) });
      if (g.result !== undefined) {
        expect(Object.keys(o.result as Json).sort()).toEqual(Object.keys(g.result as Json).sort());
        for (const field of STATE_FREE)
          expect((o.result as Json)[field]).toBe((g.result as Json)[field]);
      }
      if (g.alloc !== undefined)
        expect(normalized(o.alloc as Record<string, Json>)).toEqual(
          normalized(g.alloc as Record<string, Json>),
        );
      if (g.body !== undefined) expect(o.body).toBe(g.body);
      expect(readdirSync(cwdOurs).sort()).toEqual(readdirSync(cwdGeth).sort());
    }
  });

  it("stdin: the combined object is read the same way (all three, or some)", () => {
    const cases: readonly [readonly string[], string][] = [
      [
        [
          "--input.alloc",
          "stdin",
          "--input.env",
          "stdin",
          "--input.txs",
          "stdin",
          "--state.fork",
          "Shanghai",
        ],
        COMBINED,
      ],
      [
        [...FILES, "--input.env", "stdin"],
        JSON.stringify({ env: readCliFixture("t8n/transfer/env.json") }),
      ],
      [[...FILES, "--input.txs", "stdin"], JSON.stringify({ txsRlp: GETH.body })],
    ];
    for (const [inputs, stdin] of cases) {
      const args = [
        ...inputs,
        "--output.result",
        "stdout",
        "--output.alloc",
        "stdout",
        "--output.body",
        "stdout",
      ];
      const geth = gethT8n(args, { cwd: dir, input: stdin });
      const ours = runBuilt(["t8n", ...args], { cwd: dir, input: stdin });
      expect(ours.status).toBe(geth.status);
      const g = JSON.parse(geth.stdout) as Json;
      const o = JSON.parse(ours.stdout) as Json;
      expect(Object.keys(o)).toEqual(Object.keys(g));
      expect(o.body).toBe(g.body);
      expect(normalized(o.alloc as Record<string, Json>)).toEqual(
        normalized(g.alloc as Record<string, Json>),
      );
    }
  });

  it("stderr objects and basedir files: the same places", () => {
    const args = [
      "--output.result",
      "stderr",
      "--output.alloc",
      "a.json",
      "--output.body",
      "b.json",
    ];
    const baseGeth = join(dir, "geth-base", "x");
    const baseOurs = join(dir, "ours-base", "x");
    const geth = gethT8n([...FILES, ...args, "--output.basedir", baseGeth]);
    const ours = runBuilt(["t8n", ...FILES, ...args, "--output.basedir", baseOurs]);
    expect(ours.status).toBe(geth.status);
    expect(ours.stdout).toBe(geth.stdout);
    // geth logs on stderr before its object; the object is the last thing there.
    const gethObject = JSON.parse(geth.stderr.slice(geth.stderr.lastIndexOf("\n{") + 1)) as Json;
    expect(Object.keys(JSON.parse(ours.stderr))).toEqual(Object.keys(gethObject));
    expect(readdirSync(baseOurs).sort()).toEqual(readdirSync(baseGeth).sort());
    expect(JSON.parse(readFileSync(join(baseOurs, "b.json"), "utf8"))).toBe(
      JSON.parse(readFileSync(join(baseGeth, "b.json"), "utf8")),
    );
  });
});
