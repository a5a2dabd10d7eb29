import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
/** Every input from one combined {alloc, env, txs} object on stdin (geth's convention). */
const STDIN_INPUTS = ["--input.alloc", "stdin", "--input.env", "stdin", "--input.txs", "stdin"];

const GETH = {
  result: readCliFixture<Json>("t8n/transfer/geth-Shanghai/result.json"),
  alloc: readCliFixture<Record<string, Json>>("t8n/transfer/geth-Shanghai/alloc.json"),
  body: readCliFixture<string>("t8n/transfer/geth-Shanghai/body.json"),
};
/**
 * A result without `stateRoot` (ours is the binary root, geth's Shanghai one the MPT root), as
 * JSON text: equal texts mean the same fields, values and key order.
 */
function stateFree(result: unknown): string {
  const { stateRoot: _root, ...rest } = result as Json;
  return JSON.stringify(rest);
}

/** Our output is geth's (the result byte for byte as JSON), except the state root. */
function expectGethOutcome(output: { result?: unknown; alloc?: unknown; body?: unknown }): void {
  expect(stateFree(output.result)).toBe(stateFree(GETH.result));
  expect((output.result as Json).stateRoot).toMatch(/^0x[0-9a-f]{64}$/);
  // Equal accounts; the order of addresses is not a convention (geth's own files differ in it).
  expect(output.alloc).toStrictEqual(GETH.alloc);
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

  it("body to stdout, alloc to stderr, result to a file under a new nested --output.basedir", () => {
    const basedir = join(dir, "out", "nested");
    const ran = runBuilt([
      "t8n",
      ...FILES,
      "--output.body",
      "stdout",
      "--output.alloc",
      "stderr",
      "--output.result",
      "r.json",
      "--output.basedir",
      basedir,
    ]);
    expect(ran.status).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual({ body: GETH.body });
    // stderr carries an output object, so it holds that object alone (no summary line).
    const onStderr = JSON.parse(ran.stderr) as Json;
    expect(Object.keys(onStderr)).toEqual(["alloc"]);
    expect(ran.stderr).toBe(`${JSON.stringify(onStderr, null, 2)}\n`);
    expect(readdirSync(basedir)).toEqual(["r.json"]);
    const result = readFileSync(join(basedir, "r.json"), "utf8");
    expect(result).toBe(JSON.stringify(JSON.parse(result), null, 1)); // geth's one-space indent
    expectGethOutcome({ result: JSON.parse(result), alloc: onStderr.alloc });
  });

  it("defaults: result.json and alloc.json in the working directory; an empty name writes nothing", () => {
    const cwd = mkdtempSync(join(dir, "defaults-"));
    const ran = runBuilt(["t8n", ...FILES], { cwd });
    expect(ran.status).toBe(0);
    expect(readdirSync(cwd).sort()).toEqual(["alloc.json", "result.json"]);
    expect(ran.stderr).toContain("; wrote alloc.json, result.json\n");
    const none = mkdtempSync(join(dir, "none-"));
    const quiet = runBuilt(["t8n", ...FILES, "--output.result", "", "--output.alloc", ""], {
      cwd: none,
    });
    expect(quiet.status).toBe(0);
    expect(quiet.stdout).toBe("");
    expect(readdirSync(none)).toEqual([]);
  });

  it("--input.* stdin: the combined {alloc, env, txs} object from stdin", () => {
    const ran = runBuilt(
      [
        "t8n",
        ...STDIN_INPUTS,
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
    const printed = JSON.parse(ran.stdout) as Json;
    expect(Object.keys(printed)).toEqual(["alloc", "body", "result"]);
    expectGethOutcome(printed);
  });

  it("stdin for some inputs (txsRlp: signed transactions) and a file for the others", () => {
    const ran = runBuilt(
      [
        "t8n",
        ...FILES,
        "--input.alloc",
        "stdin",
        "--input.txs",
        "stdin",
        "--output.result",
        "stdout",
        "--output.alloc",
        "stdout",
      ],
      {
        input: JSON.stringify({
          alloc: readCliFixture("t8n/transfer/alloc.json"),
          txsRlp: GETH.body,
        }),
      },
    );
    expect(ran.status).toBe(0);
    expectGethOutcome(JSON.parse(ran.stdout));
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

  it("bad input exits with geth's code for it (its recorded runs) and one line naming it", () => {
    const geth = readCliFixture<Record<string, { status: number }>>(
      "t8n/transfer/geth-Shanghai/exit-codes.json",
    );
    /** Our exit code: geth's, except where geth panics (2) or exits 1 on a value it refuses. */
    const expected = (name: string, ours?: number) => {
      const status = geth[name]!.status;
      return ours ?? status;
    };
    const stdinArgs = ["t8n", ...STDIN_INPUTS, "--output.result", "stdout"];
    const notJson = runBuilt(stdinArgs, { input: "{ nope" });
    expect(notJson.status).toBe(expected("stdin_not_json"));
    expect(notJson.stdout).toBe("");
    expect(notJson.stderr).toMatch(/^bintrie-testnet t8n: stdin: not JSON \(.*\)\n$/);
    expect(runBuilt(stdinArgs, { input: "[1]" })).toMatchObject({
      status: expected("stdin_array"),
      stderr: 'bintrie-testnet t8n: stdin: expected one JSON object {"alloc", "env", "txs"}\n',
    });
    // geth dereferences the missing env (a panic, exit 2): an input fault, 10 here.
    expect(geth.stdin_no_env!.status).toBe(2);
    expect(runBuilt(stdinArgs, { input: "{}" })).toMatchObject({
      status: expected("stdin_no_env", 10),
      stderr: 'bintrie-testnet t8n: stdin: the input object has no "env"\n',
    });
    for (const part of ["alloc", "env", "txs"]) {
      const missing = join(dir, `missing-${part}.json`);
      expect(runBuilt(["t8n", ...FILES, `--input.${part}`, missing])).toMatchObject({
        status: expected(`${part}_file_missing`),
        stderr: `bintrie-testnet t8n: ${missing}: cannot read it (ENOENT)\n`,
      });
    }
    const badEnv = JSON.stringify({
      env: { ...readCliFixture<Json>("t8n/transfer/env.json"), currentGasLimit: "lots" },
    });
    expect(runBuilt(stdinArgs, { input: badEnv })).toMatchObject({
      status: expected("env_gas_limit_not_a_number"),
      stderr:
        'bintrie-testnet t8n: stdin.env: currentGasLimit: "lots" is not a hex or decimal quantity\n',
    });
    expect(
      runBuilt([...stdinArgs, "--state.fork", "Frobnicate"], { input: COMBINED }),
    ).toMatchObject({
      status: expected("unknown_fork"),
      stderr: expect.stringMatching(/^bintrie-testnet t8n: fork 'Frobnicate' is not known/),
    });
    // geth returns its JSON decoder's error unnumbered (exit 1): 10 here, as for any JSON fault.
    expect(geth.txs_rlp_file_not_a_string!.status).toBe(1);
    const rlpNotString = join(dir, "bad.rlp");
    writeFileSync(rlpNotString, "[]");
    expect(runBuilt(["t8n", ...FILES, "--input.txs", rlpNotString])).toMatchObject({
      status: expected("txs_rlp_file_not_a_string", 10),
      stderr: `bintrie-testnet t8n: ${rlpNotString}: expected a JSON string of hex RLP\n`,
    });
    const aFile = join(dir, "a-file");
    writeFileSync(aFile, "");
    const underFile = runBuilt([
      "t8n",
      ...FILES,
      "--output.result",
      "r.json",
      "--output.basedir",
      join(aFile, "sub"),
    ]);
    expect(underFile.status).toBe(expected("basedir_under_a_file"));
    expect(underFile.stderr).toBe(
      `bintrie-testnet t8n: --output.basedir ${join(aFile, "sub")}: ${aFile} is not a directory\n`,
    );
  });
});

/**
 * What geth's `evm t8n` did with these inputs and each output placement below: exit status,
 * stdout object, files it wrote (cli-fixtures/PROVENANCE.md says how it was recorded).
 */
const GETH_IO = readCliFixture<{
  stdout: { outputs: string[]; status: number; stdout: Json; files: string[] }[];
  stdin: { status: number; stdout: Json }[];
  basedir: { status: number; stdout: string; stderrObject: Json; files: string[]; body: string };
}>("t8n/transfer/geth-Shanghai/io-shapes.json");

describe("the same I/O shapes as the real geth evm t8n (its recorded runs)", () => {
  const OUTPUTS: readonly (readonly string[])[] = [
    ["--output.result", "stdout", "--output.alloc", "stdout"],
    ["--output.result", "stdout", "--output.alloc", "stdout", "--output.body", "stdout"],
    ["--output.result", "stdout", "--output.alloc", "", "--output.body", "stdout"],
    ["--output.alloc", "stdout", "--output.result", "r.json"],
  ];

  it("stdout objects: the same keys in the same order, the same values but the state root", () => {
    expect(GETH_IO.stdout.map((run) => run.outputs)).toEqual(OUTPUTS);
    for (const [k, outputs] of OUTPUTS.entries()) {
      const geth = GETH_IO.stdout[k]!;
      const cwdOurs = mkdtempSync(join(dir, "ours-"));
      const ours = runBuilt(["t8n", ...FILES, ...outputs], { cwd: cwdOurs });
      expect({ outputs, status: ours.status }).toEqual({ outputs, status: geth.status });
      const g = geth.stdout;
      const o = JSON.parse(ours.stdout) as Json;
      expect({ outputs, keys: Object.keys(o) }).toEqual({ outputs, keys: Object.keys(g) });
      if (g.result !== undefined) expect(stateFree(o.result)).toBe(stateFree(g.result));
      if (g.alloc !== undefined) expect(JSON.stringify(o.alloc)).toBe(JSON.stringify(g.alloc));
      if (g.body !== undefined) expect(o.body).toBe(g.body);
      expect(readdirSync(cwdOurs).sort()).toEqual(geth.files);
    }
  });

  it("stdin: the combined object is read the same way (all three, or some)", () => {
    const cases: readonly [readonly string[], string][] = [
      [[...STDIN_INPUTS, "--state.fork", "Shanghai"], COMBINED],
      [
        [...FILES, "--input.env", "stdin"],
        JSON.stringify({ env: readCliFixture("t8n/transfer/env.json") }),
      ],
      [[...FILES, "--input.txs", "stdin"], JSON.stringify({ txsRlp: GETH.body })],
    ];
    expect(GETH_IO.stdin.length).toBe(cases.length);
    for (const [k, [inputs, stdin]] of cases.entries()) {
      const args = [
        ...inputs,
        "--output.result",
        "stdout",
        "--output.alloc",
        "stdout",
        "--output.body",
        "stdout",
      ];
      const geth = GETH_IO.stdin[k]!;
      const ours = runBuilt(["t8n", ...args], { cwd: dir, input: stdin });
      expect(ours.status).toBe(geth.status);
      const g = geth.stdout;
      const o = JSON.parse(ours.stdout) as Json;
      expect(Object.keys(o)).toEqual(Object.keys(g));
      expect(o.body).toBe(g.body);
      expect(JSON.stringify(o.alloc)).toBe(JSON.stringify(g.alloc));
      expect(stateFree(o.result)).toBe(stateFree(g.result));
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
    const geth = GETH_IO.basedir;
    const baseOurs = join(dir, "ours-base", "x");
    const ours = runBuilt(["t8n", ...FILES, ...args, "--output.basedir", baseOurs]);
    expect(ours.status).toBe(geth.status);
    expect(ours.stdout).toBe(geth.stdout);
    // geth logs on stderr before its object; the recording keeps the object, the last thing there.
    expect(Object.keys(JSON.parse(ours.stderr))).toEqual(Object.keys(geth.stderrObject));
    expect(readdirSync(baseOurs).sort()).toEqual(geth.files);
    expect(JSON.parse(readFileSync(join(baseOurs, "b.json"), "utf8"))).toBe(geth.body);
  });
});
