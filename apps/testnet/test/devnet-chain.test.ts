import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bytesToHex } from "@bintrie/core";
import { createTx } from "@ethereumjs/tx";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { devAccount } from "../src/devnet/dev-accounts.js";
import { DevnetChain } from "../src/devnet/devnet-chain.js";
import { DEFAULT_DEVNET_GENESIS } from "../src/devnet/devnet-genesis.js";
import { TransactionRefused } from "../src/devnet/transaction-refused.js";
import { runBlockchainTest } from "../src/runner/run-blockchain-test.js";
import { dataPath, readDataJson } from "./test-data.js";

const made: string[] = [];
afterAll(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

/** The shipped genesis plus geth's EIP-2935 history contract (from the Binary genesis), in a temp file. */
async function verkleWithHistoryContract(): Promise<string> {
  const shipped = JSON.parse(readFileSync(DEFAULT_DEVNET_GENESIS, "utf8"));
  const binary = readDataJson<{ alloc: Record<string, unknown> }>(
    "geth-ubt/devnet-accepted/binary-chain1.genesis.json",
  );
  const history = Object.keys(binary.alloc).find(
    (a) => a.toLowerCase() === "0x0000f90827f1c53a10cb7a02335b175320002935",
  )!;
  shipped.alloc[history] = binary.alloc[history];
  const dir = await mkdtemp(join(tmpdir(), "devnet-chain-"));
  made.push(dir);
  const path = join(dir, "genesis.json");
  await writeFile(path, JSON.stringify(shipped));
  return path;
}

/** A signed transfer of `value` from dev account `from` to dev account `to`. */
function transfer(chain: DevnetChain, from: number, nonce: bigint, value: bigint, to = 9) {
  return createTx(
    {
      type: 2,
      chainId: chain.common.chainId(),
      nonce,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1n,
      gasLimit: 100_000n,
      to: devAccount(to).address,
      value,
    },
    { common: chain.vm.common },
  ).sign(devAccount(from).key);
}

describe("DevnetChain", () => {
  // The Binary network's genesis holds the system contracts: a block's EIP-4788 and EIP-2935
  // calls write their storage before its transactions run. On Verkle (Shanghai) the library's
  // block builder opens no checkpoint of its own before them: the shipped genesis with geth's
  // EIP-2935 contract added (geth's UBT import calls it on Verkle) has the chain's own undo it.
  for (const genesis of [
    "the shipped genesis",
    "binary-chain1.genesis.json",
    "verkle-2935.genesis.json",
  ]) {
    it(`${genesis}: a block with a transaction it cannot take leaves chain and state as they were; the next block is as if it never was`, async () => {
      const genesisPath =
        genesis === "verkle-2935.genesis.json"
          ? await verkleWithHistoryContract()
          : genesis.endsWith(".json")
            ? dataPath(`geth-ubt/devnet-accepted/${genesis}`)
            : undefined;
      const chain = await DevnetChain.open({ genesisPath });
      const reference = await DevnetChain.open({ genesisPath });
      const good = transfer(chain, 0, 0n, 5n);
      const bad = transfer(chain, 1, 7n, 5n); // nonce 7: account 1 has sent nothing
      const error = await chain.mine([good, bad]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransactionRefused);
      expect((error as TransactionRefused).index).toBe(1);
      expect((error as TransactionRefused).reason).toMatch(/nonce/);
      expect(chain.head.header.number).toBe(0n);
      expect(chain.transaction(bytesToHex(good.hash()))).toBeUndefined();
      // Every account and slot as in a chain that never saw the refused block (the system
      // calls' writes included).
      expect(await chain.state.dumpState()).toEqual(await reference.state.dumpState());
      // The same good transaction again: the block equals the one a chain that never saw the
      // refusal makes, hash for hash (header, state root, receipts).
      const mined = await chain.mine([good]);
      const expected = await reference.mine([good]);
      expect(bytesToHex(mined.block.hash())).toBe(bytesToHex(expected.block.hash()));
      const result = await runBlockchainTest({ file: "x", name: "x", test: await chain.fixture() });
      expect(result.failures).toEqual([]);
    });
  }

  it("exclusive runs work one at a time in call order, and a failure does not stop the queue", async () => {
    const chain = await DevnetChain.open();
    const order: string[] = [];
    const slow = chain.exclusive(async () => {
      order.push("a start");
      await new Promise((r) => setTimeout(r, 20));
      order.push("a end");
    });
    const failing = chain.exclusive(async () => {
      order.push("b");
      throw new Error("b fails");
    });
    const last = chain.exclusive(async () => {
      order.push("c");
      return 3;
    });
    await slow;
    await expect(failing).rejects.toThrow("b fails");
    expect(await last).toBe(3);
    expect(order).toEqual(["a start", "a end", "b", "c"]);
  });

  it("speculate takes back what its work changed", async () => {
    const chain = await DevnetChain.open();
    const address = devAccount(3).address;
    const before = (await chain.state.getAccount(address))!.balance;
    await chain.speculate(async () => {
      const account = (await chain.state.getAccount(address))!;
      account.balance = 1n;
      await chain.vm.evm.journal.putAccount(address, account);
    });
    expect((await chain.state.getAccount(address))!.balance).toBe(before);
    await expect(
      chain.speculate(async () => {
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(chain.state.checkpointDepth).toBe(0);
  });
});

describe("DevnetChain under overlapping operations (property)", () => {
  it("whatever overlaps — blocks, refused blocks, speculation, failing work — the chain equals a serial replay of its blocks", async () => {
    const genesisPath = await verkleWithHistoryContract();
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constant("mine" as const),
              from: fc.integer({ min: 0, max: 3 }),
              count: fc.integer({ min: 1, max: 3 }),
              badAt: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
            }),
            fc.record({
              kind: fc.constant("speculate" as const),
              who: fc.integer({ min: 0, max: 3 }),
            }),
            fc.record({ kind: fc.constant("fail" as const) }),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        async (ops) => {
          // With geth's EIP-2935 contract: a refused block's system call is state to take back.
          const chain = await DevnetChain.open({ genesisPath });
          // Each sender's next nonce as the operations are issued (a refused block leaves a gap
          // the next block of that sender fills with a nonce the chain refuses too: fine).
          const nonces = [0n, 0n, 0n, 0n];
          const running = ops.map((op) => {
            if (op.kind === "mine") {
              const txs = Array.from({ length: op.count }, (_, i) =>
                transfer(
                  chain,
                  op.from,
                  op.badAt === i ? nonces[op.from]! + 100n : nonces[op.from]! + BigInt(i),
                  1n,
                  9,
                ),
              );
              nonces[op.from] = nonces[op.from]! + BigInt(op.count);
              return chain.mine(txs);
            }
            if (op.kind === "speculate") {
              return chain.speculate(async () => {
                const address = devAccount(op.who).address;
                const account = (await chain.state.getAccount(address))!;
                account.balance = 7n;
                await chain.vm.evm.journal.putAccount(address, account);
              });
            }
            return chain.exclusive(async () => {
              throw new Error("work that fails");
            });
          });
          await Promise.allSettled(running);
          expect(chain.state.checkpointDepth).toBe(0);
          // A fresh chain mining the same blocks' transactions, one block after the other.
          const replay = await DevnetChain.open({ genesisPath });
          for (const block of chain.blocks) await replay.mine([...block.transactions]);
          expect(bytesToHex(replay.head.hash())).toBe(bytesToHex(chain.head.hash()));
          expect(await chain.state.dumpState()).toEqual(await replay.state.dumpState());
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);
});
