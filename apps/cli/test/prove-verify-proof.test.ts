import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, runCli, tempDir, testdataPath } from "./helpers/run-cli.js";
import { entryLines, nodesetCase } from "./helpers/vectors.js";

// go-ethereum's TestBinaryGenesisCommit alloc: one account, balance 1, slot 2^248 = 0x01 00…00.
const GETH_GENESIS = testdataPath("geth/TestBinaryGenesisCommit.genesis.json");
const GETH_ROOT = "0x0870fd587c41dc778019de8c5cb3193fe4ef1f417976461952d3712ba39163f5";
const ACCOUNT = "0x0100000000000000000000000000000000000000";
// EIP-7864's BASIC_DATA leaf: version 0, code size 0, nonce 0, balance 1 in the last 16 bytes.
const BASIC_DATA = `0x${"00".repeat(31)}01`;
const SLOT = `0x01${"00".repeat(31)}`;
const SLOT_VALUE = SLOT;

let dir: string;
let cleanup: () => Promise<void>;
let genesisDb: string;
let basicKey: string;
let slotKey: string;
/** Slot 0: no value, on the account's header stem (slots below 64 sit there). */
let slot0Key: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  genesisDb = join(dir, "genesis");
  const made = await runCli(["genesis", GETH_GENESIS, "--db", genesisDb]);
  expect(made.stdout).toBe(`${GETH_ROOT}\n`);
  const keys = await runCli(["key", ACCOUNT, "--basic-data", "--slot", SLOT, "--slot", "0"]);
  [basicKey, slotKey, slot0Key] = lines(keys.stdout) as [string, string, string];
});
afterAll(() => cleanup());

/** A key no tree here holds: the basic-data key with its last byte changed (same stem). */
function sameStemAbsent(key: string): string {
  return `${key.slice(0, -2)}${key.endsWith("ff") ? "fe" : "ff"}`;
}

async function proofOf(db: string, keys: readonly string[]): Promise<string> {
  const proved = await runCli(["prove", "--db", db, ...keys]);
  expect(proved.stderr).toBe("");
  expect(proved.code).toBe(0);
  return proved.stdout;
}

async function verified(document: string, root: string, extra: string[] = []) {
  return runCli(["verify-proof", "--root", root, ...extra], { input: document });
}

describe("prove and verify-proof", () => {
  it("prove geth's genesis account and slot, and absent keys; verify-proof prints their values", async () => {
    const absent = slot0Key;
    const text = await proofOf(genesisDb, [basicKey, slotKey, absent]);
    const document = JSON.parse(text);
    expect(Object.keys(document)).toEqual(["root", "scheme", "keys", "proof"]);
    expect(document.root).toBe(GETH_ROOT);
    expect(document.scheme).toBe("sha256-be");
    expect(document.keys).toEqual([basicKey, slotKey, absent]);
    const result = await verified(text, GETH_ROOT);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toEqual([
      `${basicKey} ${BASIC_DATA}`,
      `${slotKey} ${SLOT_VALUE}`,
      `${absent} absent`,
    ]);
    const json = await verified(text, GETH_ROOT, ["--json"]);
    expect(JSON.parse(json.stdout)).toEqual({
      root: GETH_ROOT,
      scheme: "sha256-be",
      values: [
        { key: basicKey, value: BASIC_DATA },
        { key: slotKey, value: SLOT_VALUE },
        { key: absent, value: null },
      ],
    });
  });

  it("geth's node-set cases at every group depth: each key's value from the vector, absent keys absent", async () => {
    for (const name of [
      "MultiStemMixedDepths",
      "TwoKeysMatchFirst42Bits",
      "LargeNumberOfEntries",
    ]) {
      const c = nodesetCase(name);
      for (const depth of Object.keys(c.nodesets)) {
        const db = join(dir, `${name}-${depth}`);
        const input = join(dir, `${name}.jsonl`);
        await writeFile(input, entryLines(c.entries));
        const built = await runCli(["build", input, "--db", db, "--group-depth", depth]);
        expect(built.stdout).toBe(`${c.root}\n`);
        // Every fifth entry (all of a small case), one key per stem it does not hold, and one
        // key off every stem: flipped first bit.
        const present = c.entries.filter((_, i) => c.entries.length < 10 || i % 5 === 0);
        const absent = [
          sameStemAbsent(c.entries[0]!.key),
          `0x${(Number.parseInt(c.entries[0]!.key.slice(2, 4), 16) ^ 0x80).toString(16).padStart(2, "0")}${c.entries[0]!.key.slice(4)}`,
        ].filter((k) => !c.entries.some((e) => e.key === k));
        const keys = [...present.map((e) => e.key), ...absent];
        const result = await verified(await proofOf(db, keys), c.root);
        expect(result.stderr).toBe("");
        expect(lines(result.stdout)).toEqual([
          ...present.map((e) => `${e.key} ${e.value}`),
          ...absent.map((k) => `${k} absent`),
        ]);
      }
    }
  });

  it("a FILE argument, and the document's root is not what is checked", async () => {
    const text = await proofOf(genesisDb, [slotKey]);
    const file = join(dir, "proof.json");
    await writeFile(file, text);
    const fromFile = await runCli(["verify-proof", file, "--root", GETH_ROOT]);
    expect(fromFile.stdout).toBe(`${slotKey} ${SLOT_VALUE}\n`);
    // A document claiming another root still verifies against the one given, and only that one.
    const claimed = JSON.stringify({ ...JSON.parse(text), root: `0x${"11".repeat(32)}` });
    expect((await verified(claimed, GETH_ROOT)).stdout).toBe(`${slotKey} ${SLOT_VALUE}\n`);
    const other = await verified(text, `0x${"11".repeat(32)}`);
    expect(other.code).toBe(1);
    expect(other.stdout).toBe("");
    expect(other.stderr).toMatch(
      /^bintrie verify-proof: stdin: proof rejected against --root 0x1{64} \(ROOT_MISMATCH\): /,
    );
  });

  it("a changed proof, value or key set is exit 1 naming core's ProofError code; nothing on stdout", async () => {
    const text = await proofOf(genesisDb, [basicKey, slotKey]);
    const document = JSON.parse(text);
    const proof: string = document.proof;
    // The proof ends with a node's 32 bytes (a hash or a value): a bit of it flipped.
    const flipped = `${proof.slice(0, -2)}${(Number.parseInt(proof.slice(-2), 16) ^ 1).toString(16).padStart(2, "0")}`;
    const cases: [string, unknown, RegExp][] = [
      [
        "value bit",
        { ...document, proof: flipped },
        /\(ROOT_MISMATCH\): the proof's hashes lead to a different root/,
      ],
      [
        "truncated",
        { ...document, proof: proof.slice(0, -2) },
        /\(TRUNCATED\): the proof needs 32 more data bytes/,
      ],
      ["trailing", { ...document, proof: `${proof}00` }, /\(TRAILING_DATA\)/],
      ["key set", { ...document, keys: [basicKey] }, /\(KEY_SET_MISMATCH\)/],
      ["version", { ...document, proof: `0x02${proof.slice(4)}` }, /\(UNSUPPORTED_VERSION\)/],
      ["hash", { ...document, scheme: "blake3-be" }, /\(HASH_FUNCTION_MISMATCH\)/],
    ];
    for (const [what, changed, code] of cases) {
      const result = await verified(JSON.stringify(changed), GETH_ROOT);
      expect(result.code, what).toBe(1);
      expect(result.stdout, what).toBe("");
      expect(result.stderr, what).toMatch(code);
    }
    // --scheme overrides the document's (here back to the right one).
    const back = await verified(JSON.stringify({ ...document, scheme: "blake3-be" }), GETH_ROOT, [
      "--scheme",
      "sha256-be",
    ]);
    expect(back.code).toBe(0);
  });

  it("bad documents and arguments are exit 2, naming the field or argument", async () => {
    const document = JSON.parse(await proofOf(genesisDb, [slotKey]));
    const cases: [string, RegExp][] = [
      ["{", /^bintrie verify-proof: stdin: not JSON/],
      ["[]", /stdin: expected a JSON object \{"root","scheme","keys","proof"\}/],
      [JSON.stringify({ ...document, extra: 1 }), /stdin: unknown field "extra"/],
      [JSON.stringify({ ...document, proof: undefined }), /stdin: no "proof" field/],
      [JSON.stringify({ ...document, keys: [] }), /"keys" must be a non-empty array/],
      [JSON.stringify({ ...document, keys: ["0x01"] }), /stdin: "keys"\[0\] must be 32 bytes/],
      [JSON.stringify({ ...document, proof: 7 }), /stdin: "proof" must be a hex string, got 7/],
      [JSON.stringify({ ...document, proof: "0xzz" }), /stdin: "proof" "0xzz" is not hex/],
      [JSON.stringify({ ...document, scheme: "keccak" }), /"scheme" must be one of sha256-be/],
    ];
    for (const [input, message] of cases) {
      const result = await verified(input, GETH_ROOT);
      expect(result.code, input).toBe(2);
      expect(result.stderr, input).toMatch(message);
    }
    const noRoot = await runCli(["verify-proof"], { input: JSON.stringify(document) });
    expect(noRoot.code).toBe(2);
    expect(noRoot.stderr).toMatch(/--root <ROOT>/);
    const shortRoot = await verified(JSON.stringify(document), "0x0870");
    expect(shortRoot.code).toBe(2);
    expect(shortRoot.stderr).toMatch(/--root must be 32 bytes/);
    const missing = await runCli(["verify-proof", join(dir, "nope.json"), "--root", GETH_ROOT]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*nope\.json: no such file/);
    const badKey = await runCli(["prove", "--db", genesisDb, slotKey, "0x1234"]);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/KEY 2 must be 32 bytes/);
    const memory = await runCli(["prove", "--store", "memory", slotKey]);
    expect(memory.code).toBe(2);
  });
});
