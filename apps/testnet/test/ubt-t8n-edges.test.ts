import { describe, expect, it } from "vitest";
import { transition } from "../src/t8n/transition.js";
import { readDataJson } from "./test-data.js";

/**
 * Out-of-gas edges where geth's EIP-4762 rules leave traces (test/data/geth-ubt/t8n-edges.json,
 * geth's evm t8n outputs, found by a gas-boundary sweep against geth):
 * - CODECOPY / EXTCODECOPY: geth's gas function hands the witness charge `contract.Gas - gas`
 *   unchecked; when the memory and copy gas already exceed the gas left it wraps, so the copied
 *   chunks (or the target's BASIC_DATA) are recorded though the copy fails, and the frame's
 *   second call finds them warm. X = 216 wraps; at 210 the constant gas fails first (no record);
 *   at 224 nothing wraps.
 * - Binary: the EIP-2935 history contract is warm for the whole block (ProcessParentBlockHash
 *   adds it to the access list and nothing resets it), so BALANCE of it costs 100; the
 *   beacon-roots contract's likewise; a plain address is cold.
 */
interface EdgeCase {
  readonly name: string;
  readonly fork: "Verkle" | "Binary";
  readonly alloc: unknown;
  readonly env: unknown;
  readonly txs: unknown;
  readonly geth: { readonly result: Record<string, unknown>; readonly alloc: unknown };
}

const { cases } = readDataJson<{ cases: EdgeCase[] }>("geth-ubt/t8n-edges.json");

describe("t8n gives geth's outputs at out-of-gas edges of the UBT rules", () => {
  it("has the nine cases", () => {
    expect(cases.map((c) => c.name)).toHaveLength(9);
  });

  for (const c of cases) {
    it(`${c.name} under ${c.fork}`, async () => {
      const output = await transition({
        alloc: c.alloc as never,
        env: c.env as never,
        txs: c.txs as never,
        fork: c.fork,
      });
      expect(JSON.parse(JSON.stringify(output.result))).toEqual(c.geth.result);
      expect(JSON.parse(JSON.stringify(output.alloc))).toEqual(c.geth.alloc);
    });
  }
});
