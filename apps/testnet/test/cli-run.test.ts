import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cliFixture, readCliFixture, runBuilt } from "./cli-process.js";

const dir = mkdtempSync(join(tmpdir(), "bintrie-testnet-cli-run-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SIMPLE = cliFixture("blockchain/SimpleTx.json");
const FOLDER = cliFixture("blockchain");
type Json = Record<string, unknown>;
const simpleTest = (): Json =>
  structuredClone(
    readCliFixture<Record<string, Json>>("blockchain/SimpleTx.json").SimpleTx_Cancun!,
  );

/** SimpleTx_Cancun with one change. */
function mutated(change: (test: Json) => void): Json {
  const test = simpleTest();
  change(test);
  return test;
}

const OTHER_ROOT = `0x${"ab".repeat(32)}`;

describe("bintrie-testnet run (built CLI)", () => {
  it("runs the vendored fixture: a PASS line, the totals, exit 0", () => {
    const { status, stdout } = runBuilt(["run", SIMPLE]);
    expect(status).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(
      new RegExp(
        `^PASS  ${SIMPLE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} :: SimpleTx_Cancun  \\[Cancun\\]  genesis 0x[0-9a-f]{64}  final 0x[0-9a-f]{64}  1 blocks`,
      ),
    );
    expect(lines.at(-2)).toMatch(/^1 blocks, 21000 gas in /);
    expect(lines.at(-1)).toBe("1 passed, 0 failed");
  });

  it("--filter is a regular expression over 'file :: name'", () => {
    for (const filter of ["blockchain/SimpleTx\\.json :: SimpleTx_Cancun$", "nothing|Tx_Can"]) {
      const ran = runBuilt(["run", FOLDER, "--filter", filter]);
      expect({ filter, status: ran.status }).toEqual({ filter, status: 0 });
      expect(ran.stdout.trim().split("\n").at(-1)).toBe("1 passed, 0 failed");
    }
  });

  it("a filter that matches nothing exits 2 and says so (no '0 passed' success)", () => {
    // The name alone is not anchored at the start: the label begins with the file.
    for (const filter of ["^SimpleTx_Cancun$", "simpletx", "Prague"]) {
      const ran = runBuilt(["run", FOLDER, "--filter", filter]);
      expect(ran).toEqual({
        status: 2,
        stdout: "",
        stderr: `bintrie-testnet run: --filter ${JSON.stringify(filter)} matches none of the 1 test under ${FOLDER} (it is a regular expression over "file :: name")\n`,
      });
    }
  });

  it("a folder without tests and a missing path exit 2", () => {
    const empty = join(dir, "empty");
    mkdirSync(empty);
    expect(runBuilt(["run", empty])).toEqual({
      status: 2,
      stdout: "",
      stderr: `bintrie-testnet run: no blockchain tests under ${empty}\n`,
    });
    const missing = join(dir, "missing.json");
    expect(runBuilt(["run", missing])).toEqual({
      status: 2,
      stdout: "",
      stderr: `bintrie-testnet run: no such file or folder: ${missing}\n`,
    });
  });

  describe("malformed fixtures: each is one failed test naming the field, and the run goes on", () => {
    const mixed = join(dir, "mixed");
    mkdirSync(mixed);
    const broken = join(mixed, "broken.json");
    const good = join(mixed, "good.json");
    const notJson = join(mixed, "not-json.json");
    const cases: Record<string, Json> = {
      nullBlock: mutated((t) => {
        (t.blocks as unknown[])[0] = null;
      }),
      numericNetwork: mutated((t) => {
        t.network = 123;
      }),
      numericLastblockhash: mutated((t) => {
        t.lastblockhash = 7;
      }),
      noGenesisHeader: mutated((t) => {
        delete t.genesisBlockHeader;
      }),
      badBalance: mutated((t) => {
        const pre = t.pre as Record<string, Json>;
        pre[Object.keys(pre)[0]!]!.balance = "lots";
      }),
      hugeBalance: mutated((t) => {
        const pre = t.pre as Record<string, Json>;
        pre[Object.keys(pre)[0]!]!.balance = `0x1${"0".repeat(64)}`;
      }),
      hugeNonce: mutated((t) => {
        const pre = t.pre as Record<string, Json>;
        pre[Object.keys(pre)[0]!]!.nonce = "0x10000000000000000";
      }),
      hugeChainId: mutated((t) => {
        t.config = { ...((t.config as Json) ?? {}), chainid: `0x1${"0".repeat(20)}` };
      }),
      unknownNetwork: mutated((t) => {
        t.network = "Frobnicate";
      }),
      wrongGenesisStateRoot: mutated((t) => {
        (t.genesisBlockHeader as Json).stateRoot = OTHER_ROOT;
      }),
    };
    // Tests of a fixtures release's other formats (the fields that tell them, as EEST writes
    // them), and its index in a hidden folder, which a run does not read.
    const otherFormats = {
      engineTest: {
        network: "Cancun",
        genesisBlockHeader: {},
        engineNewPayloads: [],
        pre: {},
        postState: {},
        lastblockhash: `0x${"00".repeat(32)}`,
      },
      stateTest: { env: {}, pre: {}, transaction: {}, post: { Cancun: [] } },
    };
    writeFileSync(broken, JSON.stringify({ ...cases, ...otherFormats, anArray: [1, 2] }));
    writeFileSync(good, readFileSync(SIMPLE));
    writeFileSync(notJson, "{ this is not JSON");
    mkdirSync(join(mixed, ".meta"));
    writeFileSync(join(mixed, ".meta", "index.json"), JSON.stringify({ test_count: 1 }));
    const firstAddress = Object.keys(simpleTest().pre as Json)[0]!;

    /** Each failure line, as `run` prints it under a test's FAIL line. */
    const expected: Record<string, string> = {
      nullBlock: `[invalid fixture: FIXTURE_FIELD_INVALID]\n    ${broken} :: nullBlock: blocks[0] must be an object, got null`,
      numericNetwork: `[invalid fixture: FIXTURE_FIELD_INVALID]\n    ${broken} :: numericNetwork: network must be a network name, got number 123`,
      numericLastblockhash: `[invalid fixture: FIXTURE_FIELD_INVALID]\n    ${broken} :: numericLastblockhash: lastblockhash must be a 32-byte hex hash, got number 7`,
      noGenesisHeader: `[invalid fixture: FIXTURE_FIELD_MISSING]\n    ${broken} :: noGenesisHeader: genesisBlockHeader is missing`,
      badBalance: `[invalid fixture: FIXTURE_FIELD_INVALID]\n    ${broken} :: badBalance: pre["${firstAddress}"].balance must be a hex or decimal quantity, got "lots"`,
      hugeBalance: `[invalid fixture: FIXTURE_FIELD_INVALID]\n    ${broken} :: hugeBalance: pre["${firstAddress}"].balance must be below 2^256, got 0x1${"0".repeat(64)}`,
      hugeNonce: `[invalid fixture: FIXTURE_FIELD_INVALID]\n    ${broken} :: hugeNonce: pre["${firstAddress}"].nonce must be below 2^64, got 0x10000000000000000`,
      hugeChainId: `[invalid fixture: FIXTURE_FIELD_INVALID]\n    ${broken} :: hugeChainId: config.chainid must be below 2^64, got 0x1${"0".repeat(20)}`,
      anArray: `[invalid fixture: INVALID_FIXTURE]\n    ${broken} :: anArray: is not a blockchain test (expected an object, got an array)`,
      engineTest: `[invalid fixture: FIXTURE_OTHER_FORMAT]\n    ${broken} :: engineTest: an engine API test (blockchain_tests_engine: engineNewPayloads, no block RLPs), not a blockchain test; run and fill take blockchain tests (genesisRLP and blocks[].rlp: a fixtures release's blockchain_tests)`,
      stateTest: `[invalid fixture: FIXTURE_OTHER_FORMAT]\n    ${broken} :: stateTest: a state test (state_tests: one transaction, post states by fork), not a blockchain test; run and fill take blockchain tests (genesisRLP and blocks[].rlp: a fixtures release's blockchain_tests)`,
    };

    it("text: one FAIL block per broken test, the good file passes, exit 1, no raw TypeError", () => {
      const { status, stdout, stderr } = runBuilt(["run", mixed]);
      expect(status).toBe(1);
      expect(stderr).toBe("");
      expect(`${stdout}${stderr}`).not.toMatch(/TypeError|RangeError|Cannot read/);
      for (const [name, failure] of Object.entries(expected)) {
        expect(stdout).toContain(`FAIL  ${broken} :: ${name}  ${failure}\n`);
      }
      expect(stdout).toMatch(
        new RegExp(
          `FAIL  ${escapeRegExp(broken)} :: unknownNetwork  .*\\n    crashed: UNKNOWN_NETWORK: fork 'Frobnicate' is not known`,
        ),
      );
      // A wrong genesis stateRoot runs, and fails on the header check.
      expect(stdout).toMatch(
        new RegExp(
          `FAIL  ${escapeRegExp(broken)} :: wrongGenesisStateRoot  \\[Cancun\\].*\\n    genesisBlockHeader.stateRoot ${OTHER_ROOT} differs from genesisRLP's 0x[0-9a-f]{64}\\n`,
        ),
      );
      expect(stdout).toContain(
        `FAIL  ${notJson} :: (whole file)  [invalid fixture: INVALID_FIXTURE]\n    ${notJson}: not a readable JSON file (`,
      );
      expect(stdout).toMatch(new RegExp(`PASS  ${escapeRegExp(good)} :: SimpleTx_Cancun  `));
      const lines = stdout.trim().split("\n");
      // 14: the .meta folder's index is not read.
      expect(lines.filter((l) => l.startsWith("FAIL")).length).toBe(14);
      expect(lines.at(-1)).toBe("1 passed, 14 failed");
    });

    it("--json: the error code and field of each broken test", () => {
      const { status, stdout, stderr } = runBuilt(["run", mixed, "--json"]);
      expect(status).toBe(1);
      expect(stderr).toBe("1 passed, 14 failed\n");
      const rows = stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Json);
      const byName = new Map(rows.map((r) => [r.name, r]));
      expect(byName.get("nullBlock")).toEqual({
        file: broken,
        name: "nullBlock",
        passed: false,
        error: { code: "FIXTURE_FIELD_INVALID", field: "blocks[0]" },
        failures: [`${broken} :: nullBlock: blocks[0] must be an object, got null`],
      });
      expect(byName.get("numericNetwork")?.error).toEqual({
        code: "FIXTURE_FIELD_INVALID",
        field: "network",
      });
      expect(byName.get("numericLastblockhash")?.error).toEqual({
        code: "FIXTURE_FIELD_INVALID",
        field: "lastblockhash",
      });
      expect(byName.get("noGenesisHeader")?.error).toEqual({
        code: "FIXTURE_FIELD_MISSING",
        field: "genesisBlockHeader",
      });
      expect(byName.get("SimpleTx_Cancun")?.passed).toBe(true);
      expect(byName.get("engineTest")?.error).toEqual({ code: "FIXTURE_OTHER_FORMAT" });
      expect((rows.at(-1)!.summary as Json).failed).toBe(14);
    });

    it("--filter picks tests of the broken file; a file that is not JSON always counts", () => {
      const { status, stdout } = runBuilt(["run", mixed, "--filter", "broken\\.json :: numeric"]);
      expect(status).toBe(1);
      const heads = stdout.split("\n").filter((l) => /^(PASS|FAIL)/.test(l));
      // In a file by name, as geth's runner orders them (the file lists numericNetwork first).
      expect(heads.map((l) => l.split("  ")[1])).toEqual([
        `${broken} :: numericLastblockhash`,
        `${broken} :: numericNetwork`,
        `${notJson} :: (whole file)`,
      ]);
    });
  });

  it("hashes without 0x, as geth's fixtures write lastblockhash, are accepted", () => {
    const file = join(dir, "geth-style.json");
    const test = mutated((t) => {
      t.lastblockhash = (t.lastblockhash as string).slice(2);
    });
    writeFileSync(file, JSON.stringify({ SimpleTx_Cancun: test }));
    const { status, stdout } = runBuilt(["run", file]);
    expect(status).toBe(0);
    expect(stdout.trim().split("\n").at(-1)).toBe("1 passed, 0 failed");
  });

  it("UBT networks state binary roots: geth's genesis stateRoot is checked against pre", () => {
    // A fixture made by geth on a UBT genesis (vendored by the executor's tests, test/data/).
    const source = fileURLToPath(
      new URL("./data/geth-ubt/fixtures/ubt_transfers_create_seed11.json", import.meta.url),
    );
    const fixture = JSON.parse(readFileSync(source, "utf8")) as Record<string, Json>;
    const test = fixture.ubt_transfers_create_seed11!;
    const stated = (test.genesisBlockHeader as Json).stateRoot as string;
    (test.genesisBlockHeader as Json).stateRoot = OTHER_ROOT;
    const file = join(dir, "ubt-wrong-genesis-root.json");
    writeFileSync(file, JSON.stringify(fixture));
    const { status, stdout } = runBuilt(["run", file]);
    expect(status).toBe(1);
    expect(stdout).toContain(
      `    genesisBlockHeader.stateRoot ${OTHER_ROOT} is not the binary genesis root ${stated} of pre\n`,
    );
  });

  it("binary fixtures: the genesis header's stateRoot must be the root of the built state", () => {
    const filled = join(dir, "filled");
    const fill = runBuilt(["fill", SIMPLE, "--out", filled]);
    expect(fill.status).toBe(0);
    const file = join(filled, "SimpleTx.json");
    const fixture = JSON.parse(readFileSync(file, "utf8")) as Record<string, Json>;
    const test = fixture.SimpleTx_Cancun!;
    const info = test._bintrie as Json;
    expect((test.genesisBlockHeader as Json).stateRoot).toBe(info.genesisRoot);
    expect(runBuilt(["run", file]).status).toBe(0);

    const wrong = join(dir, "wrong-genesis-root.json");
    (test.genesisBlockHeader as Json).stateRoot = OTHER_ROOT;
    writeFileSync(wrong, JSON.stringify({ SimpleTx_Cancun: test }));
    const { status, stdout } = runBuilt(["run", wrong]);
    expect(status).toBe(1);
    expect(stdout).toContain("[Cancun, binary roots checked]");
    expect(stdout).toContain(
      `    genesisBlockHeader.stateRoot ${OTHER_ROOT} is not the binary genesis root ${info.genesisRoot} of pre\n`,
    );
    expect(stdout.trim().split("\n").at(-1)).toBe("0 passed, 1 failed");
  });

  it("fill: a filter that matches nothing exits 2", () => {
    const ran = runBuilt(["fill", SIMPLE, "--out", join(dir, "none"), "--filter", "^nothing"]);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(
      `bintrie-testnet fill: --filter "^nothing" matches no test under ${SIMPLE} (it is a regular expression over "file :: name")\n`,
    );
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
