import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { FixtureAlloc } from "../src/fixtures/blockchain-test.js";
import { transition } from "../src/t8n/transition.js";
import { dataPath } from "./test-data.js";

/** Fork and txs file per case, from geth's TestT8n (the fixture README's table). */
const CASES: readonly [string, string, string][] = [
  ["geth-24", "Paris", "txs.json"],
  ["geth-25", "Paris", "txs.json"],
  ["geth-26", "Shanghai", "txs.json"],
  ["geth-28", "Cancun", "txs.rlp"],
  ["geth-29", "Cancun", "txs.json"],
  ["geth-30", "Cancun", "txs_more.rlp"],
  ["geth-33", "Prague", "txs.json"],
  ["geth-34", "Osaka", "txs.json"],
];

/** Result fields that do not depend on the state representation (stateRoot does). */
const FIELDS = [
  "txRoot",
  "receiptsRoot",
  "logsHash",
  "logsBloom",
  "gasUsed",
  "currentBaseFee",
  "withdrawalsRoot",
  "currentExcessBlobGas",
  "blobGasUsed",
  "requestsHash",
] as const;

function normalizedAlloc(
  alloc: Readonly<Record<string, Partial<FixtureAlloc[string]>>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [address, a] of Object.entries(alloc)) {
    const storage: Record<string, bigint> = {};
    for (const [k, v] of Object.entries(a.storage ?? {}))
      if (BigInt(v) !== 0n) storage[BigInt(k).toString(16)] = BigInt(v);
    out[address.toLowerCase()] = {
      balance: BigInt(a.balance ?? "0x0"),
      nonce: BigInt(a.nonce ?? "0x0"),
      code: (a.code ?? "0x").toLowerCase(),
      storage,
    };
  }
  return out;
}

describe("t8n on binary-tree state against geth's expected outputs", () => {
  for (const [dir, fork, txsFile] of CASES) {
    it(`${dir} (${fork}): post alloc and state-independent result fields`, async () => {
      const read = (name: string): unknown =>
        JSON.parse(readFileSync(dataPath(`mpt/t8n/${dir}/${name}`), "utf8"));
      const expected = read("exp.json") as { alloc: FixtureAlloc; result: Record<string, unknown> };
      const output = await transition({
        alloc: read("alloc.json") as never,
        env: read("env.json") as never,
        txs: read(txsFile) as never,
        fork,
      });
      expect(normalizedAlloc(output.alloc)).toEqual(normalizedAlloc(expected.alloc));
      for (const field of FIELDS) {
        if (expected.result[field] !== undefined) {
          expect({ field, value: output.result[field] }).toEqual({
            field,
            value: expected.result[field],
          });
        }
      }
      const receipts = expected.result.receipts as { gasUsed: string; status: string }[];
      expect(output.result.receipts.map((r) => [r.status, BigInt(r.gasUsed)])).toEqual(
        receipts.map((r) => [r.status, BigInt(r.gasUsed)]),
      );
      const rejected = (expected.result.rejected ?? []) as { index: number }[];
      expect((output.result.rejected ?? []).map((r) => r.index)).toEqual(
        rejected.map((r) => r.index),
      );
      expect(output.result.stateRoot).toMatch(/^0x[0-9a-f]{64}$/);
    });
  }
});
