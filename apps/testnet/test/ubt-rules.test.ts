import { readFileSync } from "node:fs";
import { paramsEVM } from "@ethereumjs/evm";
import { Account, Address, bytesToHex, hexToBytes } from "@ethereumjs/util";
import { describe, expect, it } from "vitest";
import { commonForNetwork } from "../src/chain/common-for-network.js";
import { fillUbtChain, type UbtChainDescription } from "../src/fill/fill-ubt-chain.js";
import { BinaryStateManager } from "../src/state/binary-state-manager.js";
import { transition } from "../src/t8n/transition.js";
import { AccessEvents, storageIndex } from "../src/ubt/access-events.js";
import { ubtPrecompiles } from "../src/ubt/rules/precompile-set.js";
import { UbtCommon } from "../src/ubt/ubt-common.js";
import { ubtNetworkOf } from "../src/ubt/ubt-network.js";
import { dataPath } from "./test-data.js";

/**
 * One test per UBT rule, each naming the go-ethereum function it follows (master 02b73d4).
 * Expected numbers are geth's constants and geth's outputs, never the executor's own.
 */
const A = "00000000000000000000000000000000000000aa";
const BIG = 1n << 62n;

describe("access events (core/state/access_events.go)", () => {
  it("touchAddressAndChargeGas: cold branch 1900 + cold leaf 200; writing adds 3000 + 500; warm is free", () => {
    const e = new AccessEvents();
    expect(e.touch(A, 0n, 0, false, BIG)).toEqual({ consumed: 2100n, wanted: 2100n });
    expect(e.touch(A, 0n, 1, false, BIG).wanted).toBe(200n); // same branch, new leaf
    expect(e.touch(A, 0n, 0, true, BIG).wanted).toBe(3500n); // first write of branch and leaf
    expect(e.touch(A, 0n, 1, true, BIG).wanted).toBe(500n); // branch already written
    expect(e.touch(A, 0n, 0, true, BIG).wanted).toBe(0n);
  });

  it("touchAddressAndChargeGas: too little gas records nothing (consumed = available < wanted)", () => {
    const e = new AccessEvents();
    expect(e.touch(A, 0n, 0, false, 2099n)).toEqual({ consumed: 2099n, wanted: 2100n });
    expect(e.has(A, 0n, 0)).toBe(false);
  });

  it("BasicDataGas / CodeHashGas / SlotGas charge 100 for a warm leaf when asked to; MessageCallGas and ValueTransferGas too", () => {
    const e = new AccessEvents();
    expect(e.basicDataGas(A, false, BIG, true)).toBe(2100n);
    expect(e.basicDataGas(A, false, BIG, true)).toBe(100n);
    expect(e.basicDataGas(A, false, BIG, false)).toBe(0n);
    expect(e.codeHashGas(A, false, BIG, true)).toBe(200n);
    expect(e.slotGas(A, 0n, false, BIG, true)).toBe(200n); // slot 0 is in the header stem
    expect(e.slotGas(A, 0n, false, BIG, true)).toBe(100n);
    expect(e.messageCallGas(A, BIG)).toBe(100n);
    expect(e.valueTransferGas(A, A, BIG)).toBe(3500n); // BASIC_DATA written once for both
    expect(e.valueTransferGas(A, A, BIG)).toBe(100n);
  });

  it("StorageIndex (trie/bintrie): slots 0..63 live in the header stem at 64+s, others in the main storage", () => {
    expect(storageIndex(0n)).toEqual({ treeIndex: 0n, subIndex: 64 });
    expect(storageIndex(63n)).toEqual({ treeIndex: 0n, subIndex: 127 });
    expect(storageIndex(64n)).toEqual({ treeIndex: 1n << 240n, subIndex: 64 });
    expect(storageIndex(0x1_00n)).toEqual({ treeIndex: (1n << 240n) + 1n, subIndex: 0 });
  });

  it("CodeChunksRangeGas: 31-byte chunks from leaf 128 on, the range clipped to the code", () => {
    const e = new AccessEvents();
    // bytes 0..61 of a 100-byte code: chunks 0 and 1 (header stem: one branch read)
    expect(e.codeChunksRangeGas(A, 0n, 62n, 100n, false, BIG).wanted).toBe(1900n + 2n * 200n);
    // a copy past the end touches only the chunks with code; starting beyond the code touches none
    expect(e.codeChunksRangeGas(A, 90n, 500n, 100n, false, BIG).wanted).toBe(2n * 200n);
    expect(e.codeChunksRangeGas(A, 101n, 1n, 100n, false, BIG).wanted).toBe(0n);
    expect(e.codeChunksRangeGas(A, 0n, 0n, 0n, false, BIG).wanted).toBe(0n);
    // chunk 128 is the first of the next stem (leaf 256 = tree index 1, sub-index 0)
    expect(e.codeChunksRangeGas(A, 128n * 31n, 1n, 200n * 31n, true, BIG).wanted).toBe(
      1900n + 200n + 3000n + 500n,
    );
  });

  it("AddTxOrigin / AddTxDestination (state_transition.go execute): free, and they warm the leaves", () => {
    const e = new AccessEvents();
    e.addTxOrigin(A);
    e.addTxDestination("00000000000000000000000000000000000000bb", true, true);
    expect(e.has(A, 0n, 0, true)).toBe(true);
    expect(e.has(A, 0n, 1, true)).toBe(false);
    expect(e.has("00000000000000000000000000000000000000bb", 0n, 1, true)).toBe(true);
    expect(e.valueTransferGas(A, "00000000000000000000000000000000000000bb", BIG)).toBe(100n);
  });

  it("access events are never rolled back: there is no revert to call (geth journals none)", () => {
    expect(Object.getOwnPropertyNames(AccessEvents.prototype)).not.toContain("revert");
    expect(Object.getOwnPropertyNames(AccessEvents.prototype)).not.toContain("checkpoint");
  });
});

describe("networks and Common (params/config.go Rules, tests/init.go)", () => {
  it("Verkle = Shanghai + UBT with the EIP-4762 opcode table; Binary = Osaka + UBT with Osaka's table", () => {
    expect(ubtNetworkOf("Verkle")).toMatchObject({
      baseFork: "shanghai",
      verkleOpcodes: true,
      pragueRequests: false,
    });
    expect(ubtNetworkOf("Binary")).toMatchObject({
      baseFork: "osaka",
      verkleOpcodes: false,
      pragueRequests: true,
    });
    expect(ubtNetworkOf("Shanghai")).toBeUndefined();
    expect(
      ubtNetworkOf("Anything", { shanghaiTime: 0, ubtTime: 0, enableUBTAtGenesis: true }),
    ).toMatchObject({
      baseFork: "shanghai",
      verkleOpcodes: true,
    });
    expect(ubtNetworkOf("Anything", { shanghaiTime: 0, ubtTime: 100 })).toBeUndefined();
  });

  it("initNewContract: no 200 gas per deployed byte; gasCallIntrinsic: no 9000 for value; opSelfdestruct6780; no EIP-7709", () => {
    const common = commonForNetwork("Verkle");
    common.updateParams(paramsEVM);
    expect(common).toBeInstanceOf(UbtCommon);
    expect(common.param("createDataGas")).toBe(0n);
    expect(common.param("callValueTransferGas")).toBe(0n);
    expect(common.isActivatedEIP(6780)).toBe(true);
    expect(common.isActivatedEIP(7709)).toBe(false);
    const shanghai = commonForNetwork("Shanghai");
    shanghai.updateParams(paramsEVM);
    expect(shanghai.param("createDataGas")).toBe(200n);
    expect(shanghai.param("callValueTransferGas")).toBe(9000n);
  });

  it("activePrecompiledContracts: UBT takes Berlin's set (0x01–0x09) even on an Osaka base", () => {
    const removed = ubtPrecompiles(commonForNetwork("Binary")).map((p) =>
      BigInt(p.address as string),
    );
    expect(removed.length).toBeGreaterThan(0);
    expect(removed.every((a) => a > 9n)).toBe(true);
    expect(ubtPrecompiles(commonForNetwork("Verkle"))).toEqual([]);
  });
});

describe("state writes as geth's UBT StateDB (core/state, trie/bintrie)", () => {
  const X = new Address(hexToBytes(`0x${A}`));
  const slot = (n: number) => {
    const s = new Uint8Array(32);
    s[31] = n;
    return s;
  };

  it("a storage write of zero is a present 32-zero-byte leaf (DeleteStorage), and storage is never wiped", async () => {
    const state = new BinaryStateManager({ writePolicy: "geth-ubt" });
    await state.putAccount(X, new Account(1n, 1n));
    await state.putStorage(X, slot(1), hexToBytes("0x05"));
    await state.putStorage(X, slot(2), hexToBytes("0x06"));
    await state.getStateRoot();
    await state.putStorage(X, slot(1), new Uint8Array(0));
    await state.getStateRoot();
    const tree = state.binaryTree;
    expect(tree.get(tree.keys.storageSlotKey(X.bytes, slot(1)))).toEqual(new Uint8Array(32));
    await state.deleteAccount(X);
    await state.getStateRoot();
    // DeleteAccount: both header leaves are 32 zero bytes; slot 2 keeps its value in the tree.
    expect(tree.get(tree.keys.basicDataKey(X.bytes))).toEqual(new Uint8Array(32));
    expect(tree.get(tree.keys.codeHashKey(X.bytes))).toEqual(new Uint8Array(32));
    expect(bytesToHex(tree.get(tree.keys.storageSlotKey(X.bytes, slot(2)))!)).toBe(
      `0x${"00".repeat(31)}06`,
    );
    // … but a deleted account reads no storage.
    expect((await state.getStorage(X, slot(2))).length).toBe(0);
  });

  it("deleting an account the tree never had writes its two header leaves as zeros", async () => {
    const state = new BinaryStateManager({ writePolicy: "geth-ubt" });
    await state.putAccount(X, new Account(0n, 0n));
    await state.deleteAccount(X);
    await state.getStateRoot();
    const tree = state.binaryTree;
    expect(tree.get(tree.keys.basicDataKey(X.bytes))).toEqual(new Uint8Array(32));
    expect(tree.get(tree.keys.codeHashKey(X.bytes))).toEqual(new Uint8Array(32));
  });

  it("a write equal to the original value is skipped (genesis zero slots too, as geth init)", async () => {
    const state = new BinaryStateManager({ writePolicy: "geth-ubt" });
    await state.putAccount(X, new Account(1n, 1n));
    await state.putStorage(X, slot(3), new Uint8Array(0));
    await state.getStateRoot();
    const tree = state.binaryTree;
    expect(tree.get(tree.keys.storageSlotKey(X.bytes, slot(3)))).toBeUndefined();
  });
});

describe("transaction and block rules, against geth's numbers", () => {
  const processUbt = JSON.parse(
    readFileSync(dataPath("geth-ubt/TestProcessUBT.chain.json"), "utf8"),
  ) as UbtChainDescription;

  it("TestProcessUBT block 2 by receipt: transfers 21000; creation 60421 = 53382 + 5600 (pre-check, init) + 700 (chunk write instead of 200/byte) + 739; EXTCODECOPY creation 124790", async () => {
    const { gasUsed, receiptGas } = await fillUbtChain(processUbt);
    expect(gasUsed).toEqual([63000n, 248211n]);
    // geth's breakdown (go-ethereum core/bintrie_witness_test.go; the geth-evm tool's README)
    expect(receiptGas.map((r) => r.map(Number))).toEqual([
      [21000, 21000, 21000],
      [21000, 21000, 21000, 53382 + 200 + 500 + 1900 + 3000 + 200 + 500 + 739, 124790],
    ]);
  });

  it("stateTransition.execute: the coinbase is touched after the fee (geth t8n with no transaction: zero header leaves)", async () => {
    const scenario = dataPath("geth-ubt/t8n/a_transfer_existing");
    const read = (f: string) => JSON.parse(readFileSync(`${scenario}/${f}`, "utf8"));
    const output = await transition({
      alloc: read("alloc.json"),
      env: read("env.json"),
      txs: [],
      fork: "Verkle",
    });
    // geth's evm t8n on the same alloc and env with an empty txs.json (run 2026-12-01):
    expect(output.result.stateRoot).toBe(
      "0x2bc20be343505c95166af685480d2adf62f244d27e08143399bd10128dc18e59",
    );
  });
});
