import { describe, expect, it } from "vitest";
import {
  applyGenesisAlloc,
  BinaryTree,
  type GenesisAlloc,
  GenesisError,
  parseGenesisAlloc,
  parseGenesisJson,
} from "../src/index.js";
import { hex, readTestdata } from "./helpers/shared.js";

interface RuleCase {
  readonly name: string;
  /** The alloc as JSON text (its spelling matters to some cases). */
  readonly alloc: string;
  /** geth's state root, or "refused" where geth's JSON decoding refused the alloc. */
  readonly geth: string;
}

const { cases } = readTestdata<{ cases: RuleCase[] }>("geth/genesis-alloc-rules.json");

/**
 * Where we knowingly differ from geth, and what we do instead: a negative balance, which geth
 * wraps to 2^256 − |b| and then truncates to 128 bits, is refused. (Each alloc text is read by
 * parseGenesisJson, which hands a bare balance or nonce over by its spelling, as geth reads it.)
 */
const DIFFERENCES: Readonly<Record<string, { geth: "accepted" | "refused"; ours: string }>> = {
  "balance-neg": { geth: "accepted", ours: "is negative" },
  "bal-0x-neg": { geth: "accepted", ours: "is negative" },
};

function root(alloc: GenesisAlloc): string {
  const tree = new BinaryTree();
  applyGenesisAlloc(tree, alloc);
  return hex(tree.hash());
}

function refusal(alloc: GenesisAlloc): GenesisError {
  try {
    parseGenesisAlloc(alloc);
  } catch (error) {
    expect(error).toBeInstanceOf(GenesisError);
    expect((error as GenesisError).code).toBe("INVALID_ALLOC");
    return error as GenesisError;
  }
  throw new Error("parseGenesisAlloc accepted the alloc");
}

describe("genesis alloc JSON is read as go-ethereum reads it (geth-alloc-rules vector)", () => {
  it("the vector holds accepted and refused cases", () => {
    expect(cases.length).toBeGreaterThan(80);
    expect(cases.filter((c) => c.geth === "refused").length).toBeGreaterThan(30);
  });

  for (const rule of cases.filter((c) => DIFFERENCES[c.name] === undefined)) {
    it(`${rule.name}: ${rule.geth === "refused" ? "refused" : "geth's root"}`, () => {
      const alloc = parseGenesisJson(rule.alloc, "alloc") as GenesisAlloc;
      if (rule.geth === "refused") {
        const error = refusal(alloc);
        expect(error.message).toMatch(/^alloc/);
        // A refused alloc writes nothing.
        const tree = new BinaryTree();
        expect(() => applyGenesisAlloc(tree, alloc)).toThrow(GenesisError);
        expect(tree.hash()).toEqual(new Uint8Array(32));
      } else {
        expect(root(alloc)).toBe(rule.geth);
      }
    });
  }

  it("the known difference: negative balances are refused", () => {
    for (const [name, { geth, ours }] of Object.entries(DIFFERENCES)) {
      const rule = cases.find((c) => c.name === name)!;
      expect(rule.geth === "refused" ? "refused" : "accepted").toBe(geth);
      expect(refusal(parseGenesisJson(rule.alloc, "alloc") as GenesisAlloc).message).toContain(
        ours,
      );
    }
  });

  it("bare numbers: JSON.parse would round or accept what geth reads otherwise", () => {
    // The cases where reading the text with JSON.parse gives another verdict or root than geth's.
    const lossy = cases.filter((c) => {
      if (DIFFERENCES[c.name] !== undefined) return false;
      const alloc = JSON.parse(c.alloc) as GenesisAlloc;
      try {
        return root(alloc) !== c.geth;
      } catch {
        return c.geth !== "refused";
      }
    });
    expect(lossy.map((c) => c.name).sort()).toEqual(
      [
        "bal-bare-22-digits-nonce-bare-max",
        "bal-bare-escaped-key",
        "bal-bare-fraction-zero",
        "bal-bare-max",
        "bal-bare-two-accounts",
        "bal-bare-upper-key",
        "bal-bignum",
        "bal-exp",
        "bal-bare-spaces",
        "nonce-bare-exp",
      ].sort(),
    );
  });

  it("parseGenesisJson: a genesis's alloc under any spelling of the key, other fields as JSON.parse reads them", () => {
    const text = `{"config": {"chainId": 12345678901234567890, "x": [1e3]}, "ALLOC": {"0xaa": {"Nonce": 18446744073709551615, "balance": 1e3, "storage": {"0x01": "0x02"}, "code": "0x60"}}, "gasLimit": 1e3}`;
    const genesis = parseGenesisJson(text) as Record<string, Record<string, unknown>>;
    expect(genesis).toEqual({
      config: { chainId: Number("12345678901234567890"), x: [1000] },
      ALLOC: {
        "0xaa": {
          Nonce: "18446744073709551615",
          balance: "1e3",
          storage: { "0x01": "0x02" },
          code: "0x60",
        },
      },
      gasLimit: 1000,
    });
    // The whole text as an alloc (geth's t8n alloc file): its accounts' quantities by their text.
    expect(parseGenesisJson(`{"0xaa": {"balance": 12345678901234567890}}`, "alloc")).toEqual({
      "0xaa": { balance: "12345678901234567890" },
    });
    // Strings holding quotes, backslashes and numbers are skipped whole.
    const tricky = 'x\\", "nonce": 7, "y\\\\';
    const text2 = `{"alloc": {"0xaa": {"code": ${JSON.stringify(tricky)}, "nonce": 5}}}`;
    expect(parseGenesisJson(text2)).toEqual({ alloc: { "0xaa": { code: tricky, nonce: "5" } } });
  });

  it("parseGenesisJson refuses what is not JSON, as JSON.parse does, naming why", () => {
    for (const text of [
      "",
      "{",
      `{"alloc": {"0xaa": {"balance": 01}}}`,
      `{"alloc": {"0xaa": {"balance": 1 2}}}`,
      `{"alloc": {"0xaa": {"balance": -}}}`,
      `[1,]`,
    ]) {
      let thrown: unknown;
      try {
        parseGenesisJson(text);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, text).toBeInstanceOf(GenesisError);
      expect((thrown as GenesisError).code).toBe("INVALID_JSON");
      expect((thrown as GenesisError).message).toMatch(/^not JSON \(.+\)$/);
    }
  });

  it("a refusal names the account and the field", () => {
    const address = "0x00000000000000000000000000000000000000aa";
    const cases: [object, string][] = [
      [{ nonce: "0x1" }, `alloc[${address}].balance is missing (geth requires a balance)`],
      [{ balance: "0x" }, `alloc[${address}].balance: "0x" is not a hex or decimal quantity`],
      [{ balance: "0x1", code: "6000" }, `alloc[${address}].code: "6000" is not 0x-prefixed`],
      [
        { balance: "0x1", storage: { "0x1": "0x01" } },
        `alloc[${address}].storage key 0x1: "0x1" has an odd number of hex digits`,
      ],
      [
        { balance: "0x1", storage: { "0x01": "0x1" } },
        `alloc[${address}].storage[0x01]: "0x1" has an odd number of hex digits`,
      ],
      [{ balance: "0x1", nonce: "0x10000000000000000" }, "nonce: 18446744073709551616 is above"],
      [{ balance: 1.5 }, `alloc[${address}].balance: 1.5 is not an exact whole number`],
    ];
    for (const [account, message] of cases) {
      expect(refusal({ [address]: account } as GenesisAlloc).message).toContain(message);
    }
  });
});
