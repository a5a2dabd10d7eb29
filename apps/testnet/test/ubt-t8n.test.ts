import { describe, expect, it } from "vitest";
import { transition } from "../src/t8n/transition.js";
import {
  expectGethUbtT8n,
  readUbtT8n,
  UBT_T8N_SCENARIOS,
  ubtT8nAllocFile,
} from "./geth-ubt-t8n.js";

/**
 * geth's `evm t8n` outputs for the 11 example scenarios and one made here under Shanghai, Verkle,
 * Osaka and Binary
 * (test/data/geth-ubt/PROVENANCE.md): result.json and alloc.json must come out equal as JSON
 * values — gas per receipt, receipts root, logs, and on the UBT forks the binary stateRoot. The
 * MPT forks' stateRoot is an MPT root, so there only the binary root's format is checked.
 *
 * What each scenario pins (geth functions): a/b transfer (AddTxOrigin, AddTxDestination, the
 * absent-callee CODE_HASH write in EVM.Call), c create (ContractCreatePreCheckGas,
 * ContractCreateInitGas, the chunk-write code deposit of initNewContract), d CALL with value to
 * an absent account (ValueTransferGas, no 9000, CallNewAccountGas), e SSTORE header/main slots
 * and resets (gasSStore4762, zero writes as 32-zero leaves, writes equal to the original
 * skipped), f SLOAD cold/warm (gasSLoad4762), g CODECOPY/EXTCODECOPY across chunks
 * (gasCodeCopyEip4762, opExtCodeCopyEIP4762), h sha256 direct and by STATICCALL (the flat 100,
 * Berlin's set; on Binary the unprimed warm set's cold 2600), i BLOCKHASH from the chain (no
 * EIP-7709), j SELFDESTRUCT (gasSelfdestructEIP4762, opSelfdestruct6780), k a reverted inner
 * call (access events are not rolled back), l creations that run out of gas on the UBT charges
 * (ContractCreatePreCheckGas fails: nothing made; ContractCreateInitGas fails: the account geth
 * has already made, nonce 1, stays, by a transaction and by CREATE; the receipt names the
 * address either way).
 */
const SCENARIOS = UBT_T8N_SCENARIOS;
const FORKS = ["Verkle", "Binary", "Shanghai", "Osaka"] as const;

describe("t8n gives geth's result.json and alloc.json (geth-evm's examples, vendored in test/data/geth-ubt/t8n)", () => {
  it("has the 12 scenarios", () => {
    expect(SCENARIOS.length).toBe(12);
  });

  for (const fork of FORKS) {
    for (const scenario of SCENARIOS) {
      it(`${scenario} under ${fork}`, async () => {
        const output = await transition({
          alloc: readUbtT8n(scenario, ubtT8nAllocFile(fork)) as never,
          env: readUbtT8n(scenario, "env.json") as never,
          txs: readUbtT8n(scenario, "txs.json") as never,
          fork,
        });
        expectGethUbtT8n(scenario, fork, JSON.parse(JSON.stringify(output)));
      });
    }
  }
});
