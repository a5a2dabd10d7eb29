import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bytesToHex, hexToBytes } from "@bintrie/core";
import { KeyDeriver } from "@bintrie/core/embedding";
import { verifyProof } from "@bintrie/core/proof";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type PublicClient,
  parseEther,
  verifyMessage,
  webSocket,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { COUNTER_RUNTIME, deployCode } from "../src/devnet/contracts.js";
import { devAccount } from "../src/devnet/dev-accounts.js";
import { DevnetChain } from "../src/devnet/devnet-chain.js";
import { EthApi } from "../src/devnet/rpc/eth-api.js";
import { JsonRpcServer } from "../src/devnet/rpc/json-rpc-server.js";
import { runBlockchainTest } from "../src/runner/run-blockchain-test.js";
import { MAIN, runBuilt } from "./cli-process.js";

/**
 * The devnet's JSON-RPC node through viem (an independent client that checks every answer's
 * shape as it parses it): transfers, a deployment, calls, a revert with its reason, logs, gas
 * estimates, geth's refusals, state proofs; then the chain it mined re-executes as a fixture.
 */
const devnet = defineChain({
  id: 7864,
  name: "bintrie devnet",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1"] } },
});

/** Runtime code reverting with Solidity's Error("nope"): CODECOPY the 100 bytes after it, REVERT. */
const REVERTER_RUNTIME = hexToBytes(
  `0x6064600c60003960646000fd08c379a0${(32).toString(16).padStart(64, "0")}${(4).toString(16).padStart(64, "0")}${"6e6f7065".padEnd(64, "0")}`,
);
/** Runtime code emitting LOG1(topic 0xaa…, data 0x2a word) on every call. */
const LOGGER_TOPIC = `0x${"aa".repeat(32)}`;
const LOGGER_RUNTIME = hexToBytes(`0x602a6000527f${"aa".repeat(32)}60206000a100`);

const key = (i: number) => bytesToHex(devAccount(i).key) as `0x${string}`;

let chain: DevnetChain;
let server: JsonRpcServer;
let url: string;
let client: PublicClient;
beforeAll(async () => {
  chain = await DevnetChain.open();
  server = new JsonRpcServer(new EthApi(chain, { version: "0.0.0-test" }));
  url = await server.listen({ port: 0 });
  // No cached block number: each test reads the chain as it is.
  client = createPublicClient({
    chain: devnet,
    transport: http(url),
    cacheTime: 0,
  }) as PublicClient;
});
afterAll(() => server?.close());

function wallet(i: number) {
  return createWalletClient({
    account: privateKeyToAccount(key(i)),
    chain: devnet,
    transport: http(url),
  });
}

async function rpc(body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text === "" ? undefined : JSON.parse(text) };
}

async function deploy(i: number, runtime: Uint8Array): Promise<Address> {
  const hash = await wallet(i).deployContract({
    abi: [],
    bytecode: bytesToHex(deployCode(runtime)) as `0x${string}`,
  });
  const receipt = await client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
  return receipt.contractAddress!;
}

describe("devnet JSON-RPC through viem", () => {
  it("chain id, accounts and a transfer: balance, receipt, block and state root", async () => {
    expect(await client.getChainId()).toBe(7864);
    expect(await client.getBlockNumber()).toBe(0n);
    const to = "0x00000000000000000000000000000000000b0b01";
    const hash = await wallet(0).sendTransaction({ to, value: parseEther("1") });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect(receipt.blockNumber).toBe(1n);
    expect(receipt.from).toBe(devAccount(0).address.toString());
    expect(await client.getBalance({ address: to })).toBe(parseEther("1"));
    const block = await client.getBlock({ blockNumber: 1n, includeTransactions: true });
    expect(block.transactions.map((t) => t.hash)).toEqual([hash]);
    expect(block.stateRoot).toBe(bytesToHex(chain.head.header.stateRoot));
    expect(block.hash).toBe(bytesToHex(chain.head.hash()));
    expect(block.gasUsed).toBe(receipt.gasUsed);
    // The receipt's fee: base fee plus the tip viem offered, capped by its max fee.
    const tx = await client.getTransaction({ hash });
    expect(receipt.effectiveGasPrice).toBe(tx.gasPrice);
    // The same transaction by block and index, both ways; none at index 1; no uncles.
    expect(await client.getTransaction({ blockNumber: 1n, index: 0 })).toEqual(tx);
    expect(await client.getTransaction({ blockHash: block.hash, index: 0 })).toEqual(tx);
    const none = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_getTransactionByBlockNumberAndIndex",
      params: ["0x1", "0x1"],
    });
    expect((none.json as { result: unknown }).result).toBeNull();
    const uncles = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_getUncleCountByBlockHash",
      params: [block.hash],
    });
    expect((uncles.json as { result: unknown }).result).toBe("0x0");
    expect(
      await client.getTransactionCount({ address: devAccount(0).address.toString() as Address }),
    ).toBe(1);
  });

  it("a deployment, its code and storage; a call and its estimate equal the mined gas", async () => {
    const counter = await deploy(1, COUNTER_RUNTIME);
    expect(await client.getCode({ address: counter })).toBe(bytesToHex(COUNTER_RUNTIME));
    // deployCode's init sets slot 1 = 0x2a.
    expect(await client.getStorageAt({ address: counter, slot: "0x1" })).toBe(
      `0x${"2a".padStart(64, "0")}`,
    );
    const estimate = await client.estimateGas({
      account: devAccount(1).address.toString() as Address,
      to: counter,
    });
    const hash = await wallet(1).sendTransaction({ to: counter, gas: estimate });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect(receipt.gasUsed).toBe(estimate);
    // A slot written as 32 bytes, leading zeros and all, is the same slot (geth's decodeHash).
    expect(await client.getStorageAt({ address: counter, slot: `0x${"00".repeat(31)}01` })).toBe(
      `0x${"2a".padStart(64, "0")}`,
    );
    expect(await client.getStorageAt({ address: counter, slot: "0x0" })).toBe(
      `0x${"1".padStart(64, "0")}`,
    );
    // One gas less than the estimate runs out.
    const short = await wallet(1).sendTransaction({ to: counter, gas: estimate - 1n });
    const failed = await client.waitForTransactionReceipt({ hash: short });
    expect(failed.status).toBe("reverted");
  });

  it("a revert: eth_call and eth_estimateGas give code 3, the reason and the revert data", async () => {
    const reverter = await deploy(2, REVERTER_RUNTIME);
    await expect(client.call({ to: reverter })).rejects.toThrow(
      /Execution reverted with reason: nope/,
    );
    const raw = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_call",
      params: [{ to: reverter }, "latest"],
    });
    expect(raw.json).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: 3,
        message: "execution reverted: nope",
        data: bytesToHex(REVERTER_RUNTIME.subarray(12)),
      },
    });
    const estimate = await rpc({
      jsonrpc: "2.0",
      id: 2,
      method: "eth_estimateGas",
      params: [{ to: reverter }],
    });
    expect((estimate.json as { error: { code: number } }).error.code).toBe(3);
  });

  it("logs by address and topic, in receipts and eth_getLogs", async () => {
    const logger = await deploy(3, LOGGER_RUNTIME);
    const hash = await wallet(3).sendTransaction({ to: logger });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.logs).toHaveLength(1);
    expect(receipt.logs[0]!.topics).toEqual([LOGGER_TOPIC]);
    expect(receipt.logs[0]!.data).toBe(`0x${"2a".padStart(64, "0")}`);
    const logs = await client.getLogs({ address: logger, fromBlock: 0n });
    expect(logs.map((l) => [l.transactionHash, l.blockNumber, l.logIndex])).toEqual([
      [hash, receipt.blockNumber, 0],
    ]);
    const byTopic = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_getLogs",
      params: [{ fromBlock: "0x0", topics: [[LOGGER_TOPIC]] }],
    });
    expect((byTopic.json as { result: unknown[] }).result).toHaveLength(1);
    const none = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_getLogs",
      params: [{ fromBlock: "0x0", topics: [null, LOGGER_TOPIC] }],
    });
    expect((none.json as { result: unknown[] }).result).toEqual([]);
  });

  it("filters: new blocks and new logs since the last poll, all of a filter's logs, uninstalled", async () => {
    const logger = await deploy(6, LOGGER_RUNTIME);
    const blocks = await client.createBlockFilter();
    const logs = await client.createEventFilter({ address: logger });
    const all = await client.createEventFilter({ address: logger, fromBlock: 0n });
    const first = await wallet(6).sendTransaction({ to: logger });
    const second = await wallet(6).sendTransaction({ to: logger });
    await client.waitForTransactionReceipt({ hash: second });
    const hashes = await client.getFilterChanges({ filter: blocks });
    expect(hashes).toEqual(
      await Promise.all(
        [first, second].map(
          async (hash) => (await client.getTransactionReceipt({ hash })).blockHash,
        ),
      ),
    );
    expect(await client.getFilterChanges({ filter: blocks })).toEqual([]);
    const changes = await client.getFilterChanges({ filter: logs });
    expect(changes.map((l) => l.transactionHash)).toEqual([first, second]);
    expect(await client.getFilterChanges({ filter: logs })).toEqual([]);
    const hashesOf = (list: readonly { transactionHash: string | null }[]) =>
      list.map((l) => l.transactionHash);
    expect(hashesOf(await client.getFilterChanges({ filter: all }))).toEqual([first, second]);
    // As geth: a filter's logs are those of the blocks it names now ("latest" by default).
    expect(hashesOf(await client.getFilterLogs({ filter: all }))).toEqual([first, second]);
    expect(hashesOf(await client.getFilterLogs({ filter: logs }))).toEqual([second]);
    expect(await client.uninstallFilter({ filter: logs })).toBe(true);
    const gone = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_getFilterChanges",
      params: [logs.id],
    });
    expect((gone.json as { error: unknown }).error).toEqual({
      code: -32000,
      message: "filter not found",
    });
  });

  it("geth's refusals: a used nonce, a fee under the base fee, too little balance, an old block's state", async () => {
    const account = privateKeyToAccount(key(0));
    const signed = async (overrides: Record<string, unknown>) =>
      account.signTransaction({
        chainId: 7864,
        type: "eip1559",
        to: "0x00000000000000000000000000000000000b0b01",
        value: 1n,
        gas: 100_000n,
        maxFeePerGas: 10_000_000_000n,
        maxPriorityFeePerGas: 1n,
        nonce: 0,
        ...overrides,
      });
    const send = async (raw: string) =>
      (await rpc({ jsonrpc: "2.0", id: 9, method: "eth_sendRawTransaction", params: [raw] }))
        .json as {
        error: { code: number; message: string };
      };
    const before = await client.getBlockNumber();
    expect((await send(await signed({ nonce: 0 }))).error).toMatchObject({
      code: -32000,
      message: expect.stringMatching(/nonce/),
    });
    expect((await send(await signed({ nonce: 1, maxFeePerGas: 1n }))).error.message).toMatch(
      /baseFeePerGas/,
    );
    expect((await send(await signed({ nonce: 1, value: 10n ** 30n }))).error.message).toMatch(
      /enough funds/,
    );
    // None of them made a block.
    expect(await client.getBlockNumber()).toBe(before);
    // A call pays nothing without a fee, but its value must be there (geth's buyGas check).
    const poor = `0x${"0d".repeat(20)}`;
    const rich = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_call",
      params: [{ from: poor, to: poor, value: "0x1" }],
    });
    expect((rich.json as { error: unknown }).error).toEqual({
      code: -32000,
      message: `insufficient funds for gas * price + value: address ${poor} have 0 want 1`,
    });
    const free = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_call",
      params: [{ from: poor, to: poor }],
    });
    expect((free.json as { result: unknown }).result).toBe("0x");
    const old = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_getBalance",
      params: [devAccount(0).address.toString(), "0x0"],
    });
    expect((old.json as { error: { code: number; message: string } }).error).toEqual({
      code: -32000,
      message: `eth_getBalance: the state of block 0x0 is not kept: this devnet answers state queries at the latest block (${before}) only`,
    });
  });

  it("JSON-RPC envelope: a batch in order, a notification, parse and method errors, GET", async () => {
    const batch = await rpc([
      { jsonrpc: "2.0", id: "a", method: "eth_chainId" },
      { jsonrpc: "2.0", method: "eth_blockNumber" },
      { jsonrpc: "2.0", id: 2, method: "eth_nope" },
      { jsonrpc: "1.0", id: 3, method: "eth_chainId" },
      { jsonrpc: "2.0", id: 4, method: "eth_getBalance", params: ["0x12"] },
    ]);
    expect(batch.json).toEqual([
      { jsonrpc: "2.0", id: "a", result: "0x1eb8" },
      {
        jsonrpc: "2.0",
        id: 2,
        error: { code: -32601, message: "the method eth_nope does not exist/is not available" },
      },
      { jsonrpc: "2.0", id: 3, error: { code: -32600, message: '"jsonrpc" must be "2.0"' } },
      {
        jsonrpc: "2.0",
        id: 4,
        error: { code: -32602, message: "eth_getBalance param 0: an address is 20 bytes, got 1" },
      },
    ]);
    const extra = await rpc({ jsonrpc: "2.0", id: 5, method: "eth_chainId", params: [1] });
    expect(extra.json).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: { code: -32602, message: "eth_chainId: takes 0 params, got 1" },
    });
    expect(() => new EthApi(chain, { version: "x", acounts: 2 } as never)).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION" }),
    );
    expect(
      () => new JsonRpcServer(new EthApi(chain, { version: "x" }), { maxBytes: 1 } as never),
    ).toThrow(expect.objectContaining({ code: "INVALID_OPTION" }));
    const notification = await rpc({ jsonrpc: "2.0", method: "eth_chainId" });
    expect(notification).toEqual({ status: 204, json: undefined });
    const parse = await rpc("{");
    expect((parse.json as { error: { code: number } }).error.code).toBe(-32700);
    const get = await fetch(url);
    expect(get.status).toBe(405);
    const preflight = await fetch(url, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("call objects: the type asked for, a gas price alone makes a legacy transaction, an access list is used, another chain id refused", async () => {
    const from = devAccount(5).address.toString();
    const to = "0x00000000000000000000000000000000000b0b02";
    const send = async (fields: Record<string, unknown>) =>
      (
        await rpc({
          jsonrpc: "2.0",
          id: 1,
          method: "eth_sendTransaction",
          params: [{ from, to, value: "0x1", ...fields }],
        })
      ).json as { result?: string; error?: { code: number; message: string } };
    const legacy = await send({ gasPrice: "0x77359400" });
    expect((await client.getTransaction({ hash: legacy.result as `0x${string}` })).type).toBe(
      "legacy",
    );
    const accessList = [{ address: to, storageKeys: [`0x${"00".repeat(32)}`] }];
    const withList = await send({ gasPrice: "0x77359400", accessList });
    const listed = await client.getTransaction({ hash: withList.result as `0x${string}` });
    expect(listed.type).toBe("eip2930");
    expect(listed.accessList).toEqual(accessList);
    const asked = await send({ type: "0x2", accessList });
    expect((await client.getTransaction({ hash: asked.result as `0x${string}` })).type).toBe(
      "eip1559",
    );
    expect((await send({ chainId: "0x1" })).error).toEqual({
      code: -32000,
      message: "invalid chain id 1: this chain is 7864",
    });
    expect((await send({ type: "0x3" })).error?.code).toBe(-32602);
    expect((await send({ accessList: [{ address: "0x12" }] })).error).toEqual({
      code: -32602,
      message: "eth_sendTransaction param 0.accessList[0].address: an address is 20 bytes, got 1",
    });
    // The head by number is the latest block: its state is served.
    const head = await client.getBlockNumber();
    expect(await client.getBalance({ address: to, blockNumber: head })).toBe(3n);
  });

  it("personal_sign and eth_sign for a dev account: viem's local signature of the same message, byte for byte", async () => {
    const address = devAccount(2).address.toString() as Address;
    const node = createWalletClient({ account: address, chain: devnet, transport: http(url) });
    const signature = await node.signMessage({ message: "bintrie devnet" });
    expect(signature).toBe(
      await privateKeyToAccount(key(2)).signMessage({ message: "bintrie devnet" }),
    );
    expect(await verifyMessage({ address, message: "bintrie devnet", signature })).toBe(true);
    const data = bytesToHex(new TextEncoder().encode("bintrie devnet"));
    const viaEthSign = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_sign",
      params: [address, data],
    });
    expect((viaEthSign.json as { result: string }).result).toBe(signature);
    const stranger = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "personal_sign",
      params: [data, `0x${"11".repeat(20)}`],
    });
    expect((stranger.json as { error: { code: number } }).error.code).toBe(-32000);
  });

  it("bintrie_getProof: the balance leaf under the head's state root, checked by verifyProof", async () => {
    const to = "0x00000000000000000000000000000000000b0b01";
    const basicData = new KeyDeriver("sha256-be").basicDataKey(hexToBytes(to));
    const answer = (
      await rpc({
        jsonrpc: "2.0",
        id: 1,
        method: "bintrie_getProof",
        params: [[bytesToHex(basicData)]],
      })
    ).json as { result: { root: string; scheme: string; keys: string[]; proof: string } };
    const block = await client.getBlock();
    expect(answer.result.root).toBe(block.stateRoot);
    const [value] = verifyProof(
      hexToBytes(block.stateRoot),
      [basicData],
      hexToBytes(answer.result.proof),
    );
    // EIP-7864 BASIC_DATA: version, code size, nonce 0; the balance in the last 16 bytes.
    expect(bytesToHex(value!)).toBe(`0x${parseEther("1").toString(16).padStart(64, "0")}`);
  });

  it("concurrent sends from eight accounts and calls between them: every one mined once, a block each", async () => {
    const before = await client.getBlockNumber();
    const to = (i: number) => `0x${(0xc0c0 + i).toString(16).padStart(40, "0")}` as Address;
    const hashes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        Promise.all([
          wallet(4 + i).sendTransaction({ to: to(i), value: BigInt(i + 1) }),
          client.getBalance({ address: to(i) }),
          client.estimateGas({
            account: devAccount(4 + i).address.toString() as Address,
            to: to(i),
            value: 1n,
          }),
        ]).then(([hash]) => hash),
      ),
    );
    const receipts = await Promise.all(
      hashes.map((hash) => client.waitForTransactionReceipt({ hash })),
    );
    expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(8);
    expect(await client.getBlockNumber()).toBe(before + 8n);
    for (let i = 0; i < 8; i++)
      expect(await client.getBalance({ address: to(i) })).toBe(BigInt(i + 1));
  });

  it("eth_feeHistory: base fees from the headers and the next one, gas ratios, the tips paid", async () => {
    const head = await client.getBlockNumber();
    const history = await client.getFeeHistory({ blockCount: 4, rewardPercentiles: [25, 75] });
    expect(history.oldestBlock).toBe(head - 3n);
    const blocks = await Promise.all(
      [3n, 2n, 1n, 0n].map((back) => client.getBlock({ blockNumber: head - back })),
    );
    expect(history.baseFeePerGas.slice(0, 4)).toEqual(blocks.map((b) => b.baseFeePerGas));
    expect(history.baseFeePerGas[4]).toBe(chain.head.header.calcNextBaseFee());
    expect(history.gasUsedRatio).toEqual(blocks.map((b) => Number(b.gasUsed) / Number(b.gasLimit)));
    // The last blocks hold one viem transfer each, at the 1 gwei tip the node suggested.
    expect(history.reward).toEqual(blocks.map(() => [1_000_000_000n, 1_000_000_000n]));
    const bad = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_feeHistory",
      params: ["0x2", "latest", [75, 25]],
    });
    expect((bad.json as { error: { code: number } }).error.code).toBe(-32602);
    const half = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_feeHistory",
      params: [1.5, "latest"],
    });
    expect((half.json as { error: unknown }).error).toEqual({
      code: -32602,
      message: "eth_feeHistory param 0: a block count, got 1.5",
    });
    const plain = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_feeHistory",
      params: [2, "latest"],
    });
    expect(
      (plain.json as { result: { gasUsedRatio: unknown[] } }).result.gasUsedRatio,
    ).toHaveLength(2);
  });

  it("WebSocket: calls, newHeads and logs subscriptions through viem's webSocket transport; none over HTTP", async () => {
    const wsUrl = url.replace(/^http/, "ws");
    const live = createPublicClient({ chain: devnet, transport: webSocket(wsUrl), cacheTime: 0 });
    expect(await live.getChainId()).toBe(7864);
    const logger = await deploy(7, LOGGER_RUNTIME);
    const heads: { number: bigint | null; hash: string | null }[] = [];
    const logs: { transactionHash: string | null; logIndex: number | null }[] = [];
    const gotTwoHeads = new Promise<void>((resolve) => {
      const stop = live.watchBlocks({
        onBlock: (block) => {
          heads.push({ number: block.number, hash: block.hash });
          if (heads.length === 2) {
            stop();
            resolve();
          }
        },
      });
    });
    const gotLog = new Promise<void>((resolve) => {
      const stop = live.watchEvent({
        address: logger,
        onLogs: (batch) => {
          logs.push(...batch);
          stop();
          resolve();
        },
      });
    });
    // Let both subscriptions reach the node before the blocks come.
    await new Promise((r) => setTimeout(r, 100));
    const first = await wallet(7).sendTransaction({ to: logger });
    const second = await wallet(7).sendTransaction({
      to: devAccount(8).address.toString() as Address,
      value: 1n,
    });
    await Promise.all([gotTwoHeads, gotLog]);
    const [r1, r2] = await Promise.all(
      [first, second].map((hash) => client.getTransactionReceipt({ hash })),
    );
    expect(heads).toEqual([
      { number: r1!.blockNumber, hash: r1!.blockHash },
      { number: r2!.blockNumber, hash: r2!.blockHash },
    ]);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ transactionHash: first, logIndex: 0 });
    await live.transport.getRpcClient().then((c) => c.close());
    // eth_subscribe needs a connection to notify on.
    const overHttp = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_subscribe",
      params: ["newHeads"],
    });
    expect((overHttp.json as { error: unknown }).error).toEqual({
      code: -32601,
      message: "notifications not supported (eth_subscribe needs a WebSocket)",
    });
  });

  it("WebSocket: a closing server ends its connections with 1001 and their subscriptions", async () => {
    const other = new JsonRpcServer(new EthApi(chain, { version: "x" }));
    const wsUrl = (await other.listen({ port: 0 })).replace(/^http/, "ws");
    const socket = new WebSocket(wsUrl);
    await new Promise((resolve) => socket.once("open", resolve));
    const answers: unknown[] = [];
    socket.on("message", (data) => answers.push(JSON.parse(String(data))));
    socket.send(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }),
    );
    socket.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "eth_subscribe",
        params: ["newPendingTransactions"],
      }),
    );
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "eth_chainId" }));
    while (answers.length < 3) await new Promise((r) => setTimeout(r, 10));
    expect(answers).toEqual([
      { jsonrpc: "2.0", id: 1, result: expect.stringMatching(/^0x[0-9a-f]{32}$/) },
      {
        jsonrpc: "2.0",
        id: 2,
        error: {
          code: -32602,
          message:
            'eth_subscribe: no "newPendingTransactions" subscription here ("newHeads" and "logs"; no transaction pool, so no "newPendingTransactions")',
        },
      },
      { jsonrpc: "2.0", id: 3, result: "0x1eb8" },
    ]);
    const closed = new Promise<number>((resolve) => socket.once("close", resolve));
    // (A close waiting on the client would outlast the test's timeout.)
    await other.close();
    expect(await closed).toBe(1001);
  });

  it("the mined chain re-executes as a binary fixture, every root checked", async () => {
    const fixture = await chain.fixture();
    expect(fixture.blocks).toHaveLength(Number(chain.head.header.number));
    const result = await runBlockchainTest({
      file: "devnet-rpc",
      name: "devnet-rpc",
      test: fixture,
    });
    expect(result.failures).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.binaryFixture).toBe(true);
    expect(result.blocks).toBe(fixture.blocks.length);
  }, 60_000);
});

describe("bintrie-testnet devnet --rpc (the built bin)", () => {
  let child: ChildProcess | undefined;
  let dir: string | undefined;
  afterAll(async () => {
    child?.kill("SIGKILL");
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("prints the accounts and where it listens, mines what it is sent, and on SIGTERM writes and re-runs the chain", async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`pnpm build\` first`);
    dir = await mkdtemp(join(tmpdir(), "devnet-rpc-"));
    const out = join(dir, "chain.json");
    child = spawn(process.execPath, [MAIN, "devnet", "--rpc", "--port", "0", "--out", out], {
      env: { ...process.env, BINTRIE_DEBUG: "" },
    });
    let stdout = "";
    const listening = new Promise<string>((resolve) => {
      child!.stdout!.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /^listening (\S+)$/m.exec(stdout);
        if (match !== null) resolve(match[1]!);
      });
    });
    const node = await listening;
    expect(stdout).toMatch(
      /^devnet: JSON-RPC node, chain id 7864 \(Verkle\), genesis root 0x[0-9a-f]{64}$/m,
    );
    expect(stdout).toContain(`account 0 ${devAccount(0).address.toString()} key ${key(0)}\n`);
    const sent = await fetch(node, {
      method: "POST",
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "eth_sendTransaction",
        params: [
          {
            from: devAccount(0).address.toString(),
            to: devAccount(1).address.toString(),
            value: "0x1",
          },
        ],
      }),
    });
    const { result: hash } = (await sent.json()) as { result: string };
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    const exited = new Promise<number | null>((resolve) => child!.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/^block 1 {2}txs 1 {2}gas \d+ {2}root 0x[0-9a-f]{64}$/m);
    expect(stdout).toContain(
      `devnet: 1 calls answered, 1 blocks; wrote ${out}\nre-executing it:\n`,
    );
    expect(stdout).toContain("1 passed, 0 failed");
    const written = JSON.parse(readFileSync(out, "utf8")) as { devnet: { blocks: unknown[] } };
    expect(written.devnet.blocks).toHaveLength(1);
  }, 60_000);

  it("--rpc with --blocks, and --port without --rpc, are bad usage", () => {
    const both = runBuilt(["devnet", "--rpc", "--blocks", "3"]);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/option '--rpc' cannot be used with option '--blocks <N>'/);
    const port = runBuilt(["devnet", "--port", "9"]);
    expect(port.status).toBe(2);
    expect(port.stderr).toBe("bintrie-testnet devnet: --port is for --rpc only\n");
  });
});
