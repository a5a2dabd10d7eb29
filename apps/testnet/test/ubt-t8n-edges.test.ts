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
 * - Binary, EIP-7702 and system calls (found by a random differential against geth): each
 *   authority that passes the chain id, nonce and signature checks is warm for the block, even
 *   when its nonce is wrong; so is the delegation target of a delegated destination, even after
 *   the transaction fails; the slot the EIP-2935 system call wrote is warm; and a contract's own
 *   address is not warmed by its CREATE (ethereumjs' create gas warms it, geth's does not).
 * - Both networks: a STATICCALL to an absent account pays no proof of absence (geth's Call
 *   does, StaticCall does not) and touches the callee (zero header leaves when it is deleted);
 *   a frame that runs off the end of its code pays the chunk of the implicit STOP there (geth's
 *   loop touches it; here a 33-byte PUSH32, whose second chunk only holds PUSH data), and runs
 *   out of gas when it cannot.
 * - Verkle, static frames: an SSTORE, a CALL with value or a SELFDESTRUCT there fails after its
 *   witness is recorded (geth checks write protection in the instruction, after the gas), so a
 *   later access of the same leaves is warm. Both networks: a CREATE onto an address holding
 *   only storage deploys (a UBT account has no storage root, so no collision).
 * - RIPEMD-160 (0x03): a touch rolled back by a failed call or a reverting caller stays in
 *   geth's mutation set, but 0x03 is deleted at the end only if its account exists then (an
 *   absent one writes nothing; a present empty one gets zero header leaves).
 * - An EIP-2930 access list warms nothing under UBT (geth's Prepare builds none), in its own
 *   transaction or a later one.
 * - Verkle: value CALLs keep their 2,300 stipend without the 9,000 that paid for it, so a
 *   transaction can use "negative" gas; geth prints it as a uint64 (wrapped).
 * - Binary, EIP-7002/7251 requests: geth's t8n writes the transactions' state into the tree
 *   (its intermediate root) before the end-of-block system calls set the queue slots back to
 *   zero, so those slots end as zero leaves (block import would write nothing there).
 * - Binary: the EIP-4788 contract is warm for the block even when the alloc lacks it (geth adds
 *   it to the access list before its call).
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
  it("has the thirty-five cases", () => {
    expect(cases.map((c) => c.name)).toHaveLength(35);
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
