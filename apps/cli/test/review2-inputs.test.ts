// Second review: genesis files read as geth reads them, preimage files held to the hex rule,
// LevelDB read/write failures named by --db, one stderr line for `verify --strict`, --chunk
// bounds named by the flag.
import { existsSync, readdirSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  applyGenesisAlloc,
  BinaryTree,
  bytesToHex,
  codeHash,
  type GenesisAlloc,
  MemoryStore,
} from "@bintrie/core";
import { openLevelStore } from "@bintrie/store-level";
import { buildMptBase } from "@bintrie/transition";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomEntries } from "./helpers/random-entries.js";
import { type CliResult, lines, runCli, tempDir } from "./helpers/run-cli.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

function expectOneLineError(result: CliResult, code: number, ...parts: (string | RegExp)[]): void {
  expect(result.stdout).toBe("");
  expect(lines(result.stderr)).toHaveLength(1);
  for (const part of parts) expect(result.stderr).toMatch(part);
  expect(result.code).toBe(code);
}

/** The binary root core computes for an alloc (the independent check). */
function coreRoot(alloc: GenesisAlloc): string {
  const tree = new BinaryTree();
  applyGenesisAlloc(tree, alloc);
  return bytesToHex(tree.hash());
}

const CHECKSUMMED = "0xAbCd000000000000000000000000000000000000";
const LOWER = "0xabcd000000000000000000000000000000000000";

describe("genesis files are read as geth reads them", () => {
  it("`-` reads the genesis from stdin, as build does; errors name stdin", async () => {
    const alloc = { [LOWER]: { balance: "0x2", storage: { "0x01": "0x05" } } };
    const input = JSON.stringify({ alloc });
    const genesis = await runCli(["genesis", "-", "--store", "memory", "--json"], { input });
    expect(genesis.stderr).toBe("");
    expect(JSON.parse(genesis.stdout)).toEqual({ root: coreRoot(alloc), accounts: 1 });
    const bad = await runCli(["genesis", "-", "--store", "memory"], {
      input: JSON.stringify({ alloc: { [LOWER]: { balance: "0xzz" } } }),
    });
    expectOneLineError(bad, 2, `bintrie genesis: stdin: alloc[${LOWER}].balance`);
  });

  it("an address written twice in other spellings is one account, the last one (genesis and convert agree)", async () => {
    const file = join(dir, "dup-address.json");
    // geth decodes both keys to one address and keeps the last account whole.
    await writeFile(
      file,
      `{"alloc":{"${CHECKSUMMED}":{"balance":"0x1","storage":{"0x01":"0x05"}},"${LOWER.slice(2)}":{"balance":"0x2"}}}`,
    );
    const expected = coreRoot({ [LOWER]: { balance: "0x2" } });
    const genesis = await runCli(["genesis", file, "--store", "memory", "--json"]);
    expect(genesis.stderr).toBe("");
    expect(JSON.parse(genesis.stdout)).toEqual({ root: expected, accounts: 1 });
    const converted = await runCli(["convert", "--genesis", file, "--db", join(dir, "dup-cv")]);
    expect(converted.stderr).toBe("");
    expect(converted.stdout).toBe(`${expected}\n`);
  });

  it("a slot written twice (with and without leading zeros) is one slot, the last value", async () => {
    const file = join(dir, "dup-slot.json");
    // geth keeps the last value, 0: the slot is not written (the first, 5, used to stay).
    await writeFile(
      file,
      `{"alloc":{"${LOWER}":{"balance":"0x2","storage":{"0x01":"0x05","0x0001":"0x00"}}}}`,
    );
    const expected = { [LOWER]: { balance: "0x2" } };
    const genesis = await runCli(["genesis", file, "--store", "memory", "--mpt", "--json"]);
    expect(genesis.stderr).toBe("");
    expect(JSON.parse(genesis.stdout)).toEqual({
      root: coreRoot(expected),
      accounts: 1,
      mptRoot: bytesToHex((await buildMptBase(new MemoryStore(), expected)).root),
    });
  });

  it("nonce and balance as JSON integers, as geth reads them: by their digits, past 2^53 too; other spellings refused by name", async () => {
    const numbers = join(dir, "numbers.json");
    await writeFile(numbers, `{"alloc":{"${LOWER}":{"balance":1000000,"nonce":7}}}`);
    const result = await runCli(["genesis", numbers, "--store", "memory"]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(`${coreRoot({ [LOWER]: { balance: "1000000", nonce: "7" } })}\n`);
    const huge = join(dir, "huge.json");
    await writeFile(
      huge,
      `{"alloc":{"${LOWER}":{"balance":1000000000000000000001,"nonce":9007199254740993}}}`,
    );
    const exact = await runCli(["genesis", huge, "--store", "memory"]);
    expect(exact.stderr).toBe("");
    expect(exact.stdout).toBe(
      `${coreRoot({ [LOWER]: { balance: "1000000000000000000001", nonce: "9007199254740993" } })}\n`,
    );
    const exponent = join(dir, "exponent.json");
    await writeFile(exponent, `{"alloc":{"${LOWER}":{"balance":1e21}}}`);
    const refused = await runCli(["genesis", exponent, "--db", join(dir, "exponent-db")]);
    expectOneLineError(refused, 2, `exponent.json: alloc[${LOWER}].balance`, '"1e21"');
    expect(existsSync(join(dir, "exponent-db"))).toBe(false);
  });
});

describe("convert --preimages holds the file to the hex rule", () => {
  const ADDRESS = "0x0100000000000000000000000000000000000000";

  async function mptStore(name: string): Promise<{ db: string; root: string; hashed: string }> {
    const db = join(dir, name);
    const store = await openLevelStore(db);
    const base = await buildMptBase(store, { [ADDRESS]: { balance: "0x1" } });
    await store.close();
    const hashed = bytesToHex(codeHash(Buffer.from(ADDRESS.slice(2), "hex")));
    return { db, root: bytesToHex(base.root), hashed };
  }

  it("bare hex (no 0x) is refused with exit 2 naming the file and the entry; the store is unchanged", async () => {
    const { db, root, hashed } = await mptStore("pre-bare");
    const before = readdirSync(db).sort();
    const file = join(dir, "bare.json");
    await writeFile(file, JSON.stringify({ [hashed.slice(2)]: ADDRESS.slice(2) }));
    const result = await runCli(["convert", "--db", db, "--mpt-root", root, "--preimages", file]);
    expectOneLineError(result, 2, /^bintrie convert: .*bare\.json: key "[0-9a-f]{64}" must be/);
    const values = join(dir, "bare-values.json");
    await writeFile(values, JSON.stringify({ [hashed]: ADDRESS.slice(2) }));
    const bare = await runCli(["convert", "--db", db, "--mpt-root", root, "--preimages", values]);
    expectOneLineError(bare, 2, `bare-values.json: the preimage of ${hashed}`, "20-byte address");
    expect(bare.stderr).not.toContain("preimagesFromMap");
    const short = join(dir, "short-key.json");
    await writeFile(short, JSON.stringify({ "0x12": ADDRESS }));
    const shortKey = await runCli([
      "convert",
      "--db",
      db,
      "--mpt-root",
      root,
      "--preimages",
      short,
    ]);
    expectOneLineError(shortKey, 2, 'short-key.json: key "0x12" must be a 32-byte');
    expect(readdirSync(db).sort()).toEqual(before);
    // The same entries with 0x convert.
    await writeFile(file, JSON.stringify({ [hashed]: ADDRESS }));
    const good = await runCli(["convert", "--db", db, "--mpt-root", root, "--preimages", file]);
    expect(good.stderr).toBe("");
    expect(good.code).toBe(0);
  });
});

describe("a database LevelDB cannot read", () => {
  it("damaged table files: exit 1, 'corrupt store', naming --db, not the library call", async () => {
    const db = join(dir, "damaged");
    const input = join(dir, "damaged.jsonl");
    await writeFile(
      input,
      randomEntries(3000, 99)
        .map((e) => JSON.stringify(e))
        .join("\n"),
    );
    expect((await runCli(["build", input, "--db", db])).code).toBe(0);
    // Reopening writes the log into a table file; damage its first half.
    expect((await runCli(["root", "--db", db])).code).toBe(0);
    const table = readdirSync(db).find((name) => name.endsWith(".ldb"))!;
    const bytes = await readFile(join(db, table));
    for (let i = 100; i < bytes.length / 2; i += 4096) bytes[i]! ^= 0xff;
    await writeFile(join(db, table), bytes);
    for (const command of ["nodes", "stats", "verify"]) {
      const result = await runCli([command, "--db", db]);
      expect(lines(result.stderr), command).toHaveLength(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^bintrie ${command}: corrupt store: cannot read or write the database at --db .*damaged: Corruption: `,
        ),
      );
      expect(result.stderr).not.toMatch(/on LevelDB at/);
      expect(result.code).toBe(1);
    }
  });

  it("a CURRENT naming a missing manifest: LevelDB's reason once, without the library's words", async () => {
    const db = join(dir, "bad-current");
    expect(
      (await runCli(["put", "--db", db, `0x${"11".repeat(32)}`, `0x${"22".repeat(32)}`])).code,
    ).toBe(0);
    await writeFile(join(db, "CURRENT"), "MANIFEST-999999\n");
    const result = await runCli(["root", "--db", db]);
    expectOneLineError(
      result,
      2,
      /^bintrie root: cannot open the database at .*bad-current: IO error: /,
    );
    expect(result.stderr).not.toContain("cannot open LevelDB");
  });
});

describe("verify --strict and key --chunk", () => {
  it("verify --strict with garbage prints one line, the failure", async () => {
    const db = join(dir, "garbage");
    const input = join(dir, "garbage.jsonl");
    await writeFile(
      input,
      `${JSON.stringify({ key: `0x${"01".repeat(32)}`, value: `0x${"02".repeat(32)}` })}\n`,
    );
    expect((await runCli(["build", input, "--db", db])).code).toBe(0);
    // An unreachable node: a copy of the root stem at another path.
    const store = await openLevelStore(db);
    const rootBlob = (await store.get(Uint8Array.from([0x76, 0x41])))!;
    await store.batch([
      { type: "put", key: Uint8Array.from([0x76, 0x41, 0x12, 0x08]), value: rootBlob },
    ]);
    await store.close();
    const strict = await runCli(["verify", "--db", db, "--strict"]);
    expect(strict.code).toBe(1);
    expect(lines(strict.stderr)).toEqual([
      "bintrie verify: verification failed (--strict): 1 unreachable stored nodes",
    ]);
    const lenient = await runCli(["verify", "--db", db]);
    expect(lenient.code).toBe(0);
    expect(lines(lenient.stderr)).toHaveLength(1);
    expect(lenient.stderr).toMatch(/^bintrie verify: warning: 1 stored nodes/);
  });

  it("--chunk beyond the key layout is refused naming --chunk", async () => {
    const address = "0x0100000000000000000000000000000000000000";
    const last = await runCli(["key", address, "--chunk", "18446744073709551487"]);
    expect(last.code).toBe(0);
    const result = await runCli(["key", address, "--chunk", "18446744073709551488"]);
    expectOneLineError(
      result,
      2,
      /^bintrie key: --chunk "18446744073709551488" must be a decimal chunk index below 2\^64 - 128/,
    );
  });
});
