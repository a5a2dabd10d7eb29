import { describe, expect, it } from "vitest";
import {
  applyGenesisAlloc,
  BinaryTree,
  type GenesisAlloc,
  GenesisError,
  parseGenesisAlloc,
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
 * Where we knowingly differ from geth, and what we do instead. JSON.parse hands over numbers,
 * not their spelling, so `1e3` reads as 1000 and a number past 2^53 cannot be read exactly; a
 * negative balance, which geth wraps to 2^256 − |b| and then truncates to 128 bits, is refused.
 */
const DIFFERENCES: Readonly<Record<string, { geth: "accepted" | "refused"; ours: string }>> = {
  "balance-neg": { geth: "accepted", ours: "is negative" },
  "bal-0x-neg": { geth: "accepted", ours: "is negative" },
  "bal-bignum": { geth: "accepted", ours: "past 2^53 loses digits" },
  "bal-exp": { geth: "refused", ours: "accepted as 1000" },
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
      const alloc = JSON.parse(rule.alloc) as GenesisAlloc;
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

  it("the known differences: negative balances and JSON numbers that are not plain integers", () => {
    for (const [name, { geth, ours }] of Object.entries(DIFFERENCES)) {
      const rule = cases.find((c) => c.name === name)!;
      expect(rule.geth === "refused" ? "refused" : "accepted").toBe(geth);
      const alloc = JSON.parse(rule.alloc) as GenesisAlloc;
      if (ours === "accepted as 1000") {
        const [account] = parseGenesisAlloc(alloc);
        expect(account!.balance).toBe(1000n);
      } else {
        expect(refusal(alloc).message).toContain(ours);
      }
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
