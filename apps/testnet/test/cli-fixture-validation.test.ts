import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TestnetError } from "../src/chain/testnet-error.js";
import { compileTestFilter, matchesTestFilter } from "../src/fixtures/test-filter.js";
import { assertBlockchainTest } from "../src/fixtures/validate-fixture.js";
import { readCliFixture } from "./cli-process.js";

type Json = Record<string, unknown>;
const base = readCliFixture<Record<string, Json>>("blockchain/SimpleTx.json").SimpleTx_Cancun!;
const address = Object.keys(base.pre as Json)[0]!;
const slotted = Object.entries(base.postState as Record<string, Json>).find(
  ([, account]) => Object.keys(account.storage as Json).length > 0,
);

/** A field of the test as a list of keys, and how the checker names it. */
interface FieldPath {
  readonly keys: readonly (string | number)[];
  readonly name: string;
}

const at = (name: string, ...keys: (string | number)[]): FieldPath => ({ keys, name });
const REQUIRED: readonly FieldPath[] = [
  at("network", "network"),
  at("genesisRLP", "genesisRLP"),
  at("genesisBlockHeader", "genesisBlockHeader"),
  at("genesisBlockHeader.stateRoot", "genesisBlockHeader", "stateRoot"),
  at("pre", "pre"),
  at("blocks", "blocks"),
  at("blocks[0].rlp", "blocks", 0, "rlp"),
  at("lastblockhash", "lastblockhash"),
];
const OPTIONAL: FieldPath[] = [
  at("genesisBlockHeader.hash", "genesisBlockHeader", "hash"),
  at("genesisBlockHeader.gasLimit", "genesisBlockHeader", "gasLimit"),
  at(`pre[${JSON.stringify(address)}]`, "pre", address),
  at(`pre[${JSON.stringify(address)}].balance`, "pre", address, "balance"),
  at(`pre[${JSON.stringify(address)}].nonce`, "pre", address, "nonce"),
  at(`pre[${JSON.stringify(address)}].code`, "pre", address, "code"),
  at(`pre[${JSON.stringify(address)}].storage`, "pre", address, "storage"),
  at("blocks[0]", "blocks", 0),
  at("blocks[0].transactions", "blocks", 0, "transactions"),
  at("postState", "postState"),
  at("sealEngine", "sealEngine"),
];
if (slotted !== undefined) {
  const [owner, account] = slotted;
  const slot = Object.keys(account.storage as Json)[0]!;
  OPTIONAL.push(
    at(
      `postState[${JSON.stringify(owner)}].storage[${JSON.stringify(slot)}]`,
      "postState",
      owner,
      "storage",
      slot,
    ),
  );
}

function withField(path: FieldPath, value: unknown): Json {
  const test = structuredClone(base);
  let parent = test as Record<string | number, unknown>;
  for (const key of path.keys.slice(0, -1))
    parent = parent[key] as Record<string | number, unknown>;
  const last = path.keys.at(-1)!;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return test;
}

function failure(test: unknown): TestnetError | undefined {
  try {
    assertBlockchainTest(test, "f.json", "t");
    return undefined;
  } catch (error) {
    return error as TestnetError;
  }
}

/** Values no field of a blockchain test accepts (every field is a string, object or array). */
const junk = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
);

describe("fixture field check (property)", () => {
  it("the vendored test passes the check", () => {
    expect(failure(base)).toBeUndefined();
  });

  it("a field set to a value of the wrong type is a TestnetError naming that field", () => {
    fc.assert(
      fc.property(fc.constantFrom(...REQUIRED, ...OPTIONAL), junk, (path, value) => {
        const error = failure(withField(path, value));
        expect(error).toBeInstanceOf(TestnetError);
        expect(error!.code).toBe("FIXTURE_FIELD_INVALID");
        // An array where a list is expected fails on its first element instead.
        expect(error!.field!.startsWith(path.name)).toBe(true);
        expect(error!.message.startsWith(`f.json :: t: ${error!.field} `)).toBe(true);
        expect(error!.file).toBe("f.json");
        expect(error!.test).toBe("t");
      }),
      { numRuns: 300 },
    );
  });

  it("a required field that is missing is FIXTURE_FIELD_MISSING naming it; optional ones may go", () => {
    for (const path of REQUIRED) {
      const error = failure(withField(path, undefined));
      expect({ path: path.name, code: error?.code, field: error?.field }).toEqual({
        path: path.name,
        code: "FIXTURE_FIELD_MISSING",
        field: path.name,
      });
    }
    for (const path of OPTIONAL.filter((p) => !p.name.startsWith("blocks[0]"))) {
      expect({ path: path.name, error: failure(withField(path, undefined)) }).toEqual({
        path: path.name,
        error: undefined,
      });
    }
  });

  it("a hex string that is not hex is named, whatever the string", () => {
    const hexFields = REQUIRED.filter((p) => /RLP|stateRoot|lastblockhash|rlp$/.test(p.name));
    fc.assert(
      fc.property(
        fc.constantFrom(...hexFields),
        fc.string({ minLength: 1 }).filter((s) => /[^0-9a-fA-Fx]/.test(s)),
        (path, text) => {
          expect(failure(withField(path, text))?.field).toBe(path.name);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("test filter (property)", () => {
  const label = fc.stringMatching(/^[A-Za-z0-9_./-]{1,20}$/);

  it("an escaped 'file :: name' selects exactly that test among others", () => {
    fc.assert(
      fc.property(label, label, label, label, (file, name, otherFile, otherName) => {
        const exact = `^${`${file} :: ${name}`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;
        const filter = compileTestFilter(exact);
        expect(matchesTestFilter(filter, file, name)).toBe(true);
        const same = otherFile === file && otherName === name;
        expect(matchesTestFilter(filter, otherFile, otherName)).toBe(same);
      }),
      { numRuns: 200 },
    );
  });

  it("a stateful /g expression matches the same way every time; bad patterns are coded", () => {
    const filter = compileTestFilter(/Tx/g);
    expect([1, 2, 3].map(() => matchesTestFilter(filter, "a.json", "SimpleTx"))).toEqual([
      true,
      true,
      true,
    ]);
    expect(() => compileTestFilter("(")).toThrow(
      expect.objectContaining({ name: "TestnetError", code: "INVALID_FILTER" }),
    );
  });
});
