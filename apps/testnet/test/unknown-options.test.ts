// Every testnet function that takes an options object refuses a key it does not know, naming the
// function and the key: a misspelt option (`groupdepth`, `blokcs`, `shceme`) used to be ignored,
// so the call quietly ran with the default (another group depth, block count or key scheme).
import { MemoryStore } from "@bintrie/core";
import { Account, Address, hexToBytes } from "@ethereumjs/util";
import { describe, expect, it } from "vitest";
import { commonForNetwork } from "../src/chain/common-for-network.js";
import { TestnetError } from "../src/chain/testnet-error.js";
import { produceDevnet } from "../src/devnet/run-devnet.js";
import { fillBlockchainTest } from "../src/fill/fill-blockchain-test.js";
import { fillFiles } from "../src/fill/fill-files.js";
import type { NamedTest } from "../src/fixtures/blockchain-test.js";
import { executeChain } from "../src/runner/execute-chain.js";
import { runBlockchainTest } from "../src/runner/run-blockchain-test.js";
import { BinaryStateManager } from "../src/state/binary-state-manager.js";
import { StateManagerError } from "../src/state/state-manager-error.js";
import { createExecutionVM } from "../src/ubt/create-ubt-vm.js";

type AnyClass = abstract new (...args: never[]) => Error;

async function refused(call: () => unknown, ErrorClass: AnyClass, where: string, key: string) {
  let error: unknown;
  try {
    await call();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ErrorClass);
  expect((error as { code: string }).code).toBe("INVALID_OPTION");
  expect((error as Error).message).toMatch(
    new RegExp(`^${where}: unknown option '${key}' in options \\(known: `),
  );
}

const bad = <T>(options: object) => options as T;
// Never read: the options are checked first.
const NAMED = { name: "t", file: "f", test: {} } as unknown as NamedTest;

describe("an unknown option key is INVALID_OPTION naming the function and the key", () => {
  it("the state manager", async () => {
    await refused(
      () => new BinaryStateManager(bad({ groupdepth: 3 })),
      StateManagerError,
      "BinaryStateManager",
      "groupdepth",
    );
    await refused(
      () => BinaryStateManager.open(new MemoryStore(), bad({ rot: new Uint8Array(32) })),
      StateManagerError,
      "BinaryStateManager\\.open",
      "rot",
    );
  });

  it("chains, runs and the devnet", async () => {
    await refused(
      () => commonForNetwork("Cancun", bad({ chainid: 1 })),
      TestnetError,
      "commonForNetwork",
      "chainid",
    );
    await refused(
      () => executeChain(NAMED.test, bad({ shceme: "blake3-be" })),
      TestnetError,
      "executeChain",
      "shceme",
    );
    await refused(
      () => runBlockchainTest(NAMED, bad({ shceme: "blake3-be" })),
      TestnetError,
      "runBlockchainTest",
      "shceme",
    );
    await refused(() => produceDevnet(bad({ blokcs: 2 })), TestnetError, "produceDevnet", "blokcs");
    await refused(
      () => fillFiles([], "out", bad({ filters: "x" })),
      TestnetError,
      "fillFiles",
      "filters",
    );
    await refused(
      () => fillBlockchainTest(NAMED, bad({ source: "f" })),
      TestnetError,
      "fillBlockchainTest",
      "source",
    );
    await refused(
      () => createExecutionVM(bad({ common: commonForNetwork("Cancun"), statemanager: {} })),
      TestnetError,
      "createExecutionVM",
      "statemanager",
    );
  });
});

describe("BinaryStateManager.open takes its own writePolicy (it went to openTree, which refused it)", () => {
  it("opens a committed state with writePolicy 'geth-ubt'", async () => {
    const store = new MemoryStore();
    const state = new BinaryStateManager({ store, writePolicy: "geth-ubt" });
    await state.checkpoint();
    await state.putAccount(new Address(hexToBytes(`0x${"aa".repeat(20)}`)), new Account(1n, 7n));
    const root = await state.getStateRoot();
    await state.commit();
    const opened = await BinaryStateManager.open(store, { writePolicy: "geth-ubt" });
    expect(opened.writePolicy).toBe("geth-ubt");
    expect(await opened.getStateRoot()).toEqual(root);
  });
});
