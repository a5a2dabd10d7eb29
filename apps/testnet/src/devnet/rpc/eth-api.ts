import { assertKnownOptions } from "@bintrie/codec";
import { bytesToHex, type KeyScheme } from "@bintrie/core";
import { prove } from "@bintrie/core/proof";
import type { Block } from "@ethereumjs/block";
import { createBlock } from "@ethereumjs/block";
import { createTx, createTxFromRLP, type TypedTransaction } from "@ethereumjs/tx";
import { Address, hexToBytes } from "@ethereumjs/util";
import { type RunTxResult, runTx } from "@ethereumjs/vm";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { ecsign } from "../../chain/native-ecsign.js";
import { TestnetError } from "../../chain/testnet-error.js";
import { type DevAccount, fundedDevAccounts } from "../dev-accounts.js";
import { DEVNET_COINBASE, DEVNET_SLOT_SECONDS, type DevnetChain } from "../devnet-chain.js";
import { libraryReason, TransactionRefused } from "../transaction-refused.js";
import { outcome, rejected } from "./call-outcome.js";
import { type CallRequest, callParam } from "./call-request.js";
import { JsonRpcError } from "./json-rpc-error.js";
import { isHeadTag, type LogFilter, logFilterParam, logMatches } from "./log-filter.js";
import {
  blockJson,
  blockLogs,
  effectiveGasPrice,
  receiptJson,
  rpcQuantity,
  transactionGasUsed,
  transactionJson,
} from "./rpc-json.js";
import {
  addressParam,
  arity,
  boolParam,
  bytesParam,
  hashParam,
  hexString,
  listParam,
  type Params,
  percentilesParam,
  quantityParam,
  shown,
} from "./rpc-params.js";
import { type RpcSession, Subscriptions } from "./subscriptions.js";

/** The tip the node suggests and fills into transactions it signs (1 gwei). */
const SUGGESTED_TIP = 1_000_000_000n;
/** EIP-7825's transaction gas cap (2^24), from Osaka on. */
const EIP7825_TX_GAS_CAP = 1n << 24n;
/** Logs of at most this many blocks per eth_getLogs (geth's default range limit is larger; a devnet is small). */
const MAX_LOG_BLOCKS = 100_000n;

type Method = (params: Params) => Promise<unknown> | unknown;

/** A method that takes no params (any given are refused, as geth refuses them). */
function none(method: string, answer: () => unknown): Method {
  return (p) => {
    arity(p, method, 0, 0);
    return answer();
  };
}

export interface EthApiOptions {
  /** What web3_clientVersion reports after `bintrie-testnet/v`. */
  readonly version: string;
  /** Dev accounts the node signs for, at most (default 16; fewer where the genesis funds fewer). */
  readonly accounts?: number;
}

const ETH_API_OPTION_KEYS: readonly (keyof EthApiOptions)[] = ["version", "accounts"];

/**
 * The Ethereum JSON-RPC methods a devnet answers (execution-apis names and shapes), over a
 * DevnetChain that mines one block per transaction sent. State is served at the latest block
 * only (the tree keeps no older states): a state query for another block is refused, naming it.
 */
export class EthApi {
  readonly #chain: DevnetChain;
  readonly #version: string;
  /** The dev accounts whose keys the node holds (eth_accounts, eth_sendTransaction). */
  readonly #accounts: readonly DevAccount[];
  readonly #methods: ReadonlyMap<string, Method>;
  /** Installed filters by id (eth_newFilter, eth_newBlockFilter). */
  readonly #filters = new Map<string, InstalledFilter>();
  #lastFilterId = 0;
  readonly #subscriptions: Subscriptions;
  /** #pendingBlock's block and the head it follows. */
  #pending: { readonly parent: Block; readonly block: Block } | undefined;

  constructor(chain: DevnetChain, options: EthApiOptions) {
    assertKnownOptions(options, ETH_API_OPTION_KEYS, "EthApi", TestnetError);
    this.#chain = chain;
    this.#version = options.version;
    this.#subscriptions = new Subscriptions(chain);
    this.#accounts = fundedDevAccounts(chain.genesis.alloc, options.accounts ?? 16);
    this.#methods = new Map<string, Method>([
      [
        "web3_clientVersion",
        none("web3_clientVersion", () => `bintrie-testnet/v${this.#version}/devnet`),
      ],
      ["net_version", none("net_version", () => String(this.#chain.genesis.chainId))],
      ["net_listening", none("net_listening", () => true)],
      ["eth_chainId", none("eth_chainId", () => rpcQuantity(this.#chain.genesis.chainId))],
      ["eth_syncing", none("eth_syncing", () => false)],
      [
        "eth_blockNumber",
        none("eth_blockNumber", () => rpcQuantity(this.#chain.head.header.number)),
      ],
      ["eth_accounts", none("eth_accounts", () => this.#accounts.map((a) => a.address.toString()))],
      [
        "eth_gasPrice",
        none("eth_gasPrice", () => rpcQuantity(this.#nextBaseFee() + SUGGESTED_TIP)),
      ],
      [
        "eth_maxPriorityFeePerGas",
        none("eth_maxPriorityFeePerGas", () => rpcQuantity(SUGGESTED_TIP)),
      ],
      ["eth_feeHistory", (p) => this.#feeHistory(p)],
      [
        "eth_getBalance",
        (p) =>
          this.#account(p, "eth_getBalance", async (a) =>
            rpcQuantity((await this.#chain.state.getAccount(a))?.balance ?? 0n),
          ),
      ],
      [
        "eth_getTransactionCount",
        (p) =>
          this.#account(p, "eth_getTransactionCount", async (a) =>
            rpcQuantity((await this.#chain.state.getAccount(a))?.nonce ?? 0n),
          ),
      ],
      [
        "eth_getCode",
        (p) =>
          this.#account(p, "eth_getCode", async (a) =>
            bytesToHex(await this.#chain.state.getCode(a)),
          ),
      ],
      ["eth_getStorageAt", (p) => this.#getStorageAt(p)],
      ["eth_getBlockByNumber", (p) => this.#getBlockByNumber(p)],
      ["eth_getBlockByHash", (p) => this.#getBlockByHash(p)],
      [
        "eth_getBlockTransactionCountByNumber",
        (p) => this.#countOf(this.#blockAt(p, 0, "eth_getBlockTransactionCountByNumber", 1)),
      ],
      [
        "eth_getBlockTransactionCountByHash",
        (p) => this.#countOf(this.#blockWithHash(p, "eth_getBlockTransactionCountByHash", 1)),
      ],
      ["eth_getTransactionByHash", (p) => this.#getTransactionByHash(p)],
      [
        "eth_getTransactionByBlockNumberAndIndex",
        (p) =>
          this.#transactionAt(p, "eth_getTransactionByBlockNumberAndIndex", (m) =>
            this.#blockAt(p, 0, m, 2),
          ),
      ],
      [
        "eth_getTransactionByBlockHashAndIndex",
        (p) =>
          this.#transactionAt(p, "eth_getTransactionByBlockHashAndIndex", (m) =>
            this.#blockWithHash(p, m, 2),
          ),
      ],
      // Post-merge blocks have no uncles.
      [
        "eth_getUncleCountByBlockNumber",
        (p) =>
          this.#blockAt(p, 0, "eth_getUncleCountByBlockNumber", 1) === undefined ? null : "0x0",
      ],
      [
        "eth_getUncleCountByBlockHash",
        (p) =>
          this.#blockWithHash(p, "eth_getUncleCountByBlockHash", 1) === undefined ? null : "0x0",
      ],
      ["eth_coinbase", none("eth_coinbase", () => bytesToHex(DEVNET_COINBASE))],
      ["eth_getTransactionReceipt", (p) => this.#getTransactionReceipt(p)],
      ["eth_getBlockReceipts", (p) => this.#getBlockReceipts(p)],
      ["eth_getLogs", (p) => this.#getLogs(p)],
      ["eth_newFilter", (p) => this.#newFilter(p)],
      [
        "eth_newBlockFilter",
        (p) => {
          arity(p, "eth_newBlockFilter", 0, 0);
          return this.#install({ kind: "blocks" });
        },
      ],
      ["eth_getFilterChanges", (p) => this.#getFilterChanges(p)],
      ["eth_getFilterLogs", (p) => this.#getFilterLogs(p)],
      [
        "eth_uninstallFilter",
        (p) => {
          arity(p, "eth_uninstallFilter", 1, 1);
          return typeof p[0] === "string" && this.#filters.delete(p[0].toLowerCase());
        },
      ],
      ["eth_sendRawTransaction", (p) => this.#sendRawTransaction(p)],
      ["eth_sendTransaction", (p) => this.#sendTransaction(p)],
      // EIP-191 personal messages, signed for the dev accounts: (address, data) and (data, address).
      [
        "eth_sign",
        (p) => {
          arity(p, "eth_sign", 2, 2);
          return this.#signMessage(p[0], p[1], "eth_sign");
        },
      ],
      [
        "personal_sign",
        (p) => {
          arity(p, "personal_sign", 2, 3);
          return this.#signMessage(p[1], p[0], "personal_sign");
        },
      ],
      ["eth_call", (p) => this.#call(p)],
      ["eth_estimateGas", (p) => this.#estimateGas(p)],
      // hardhat's and anvil's name; a timestamp param is refused (blocks are 12 s apart).
      [
        "evm_mine",
        none("evm_mine", async () => {
          await this.#chain.mine([]);
          return "0x0";
        }),
      ],
      ["bintrie_getProof", (p) => this.#getProof(p)],
    ]);
  }

  /** The dev accounts the node signs for (eth_accounts), in key order. */
  get accounts(): readonly string[] {
    return this.#accounts.map((a) => a.address.toString());
  }

  /** Method names the node answers. */
  get methods(): readonly string[] {
    return [...this.#methods.keys(), "eth_subscribe", "eth_unsubscribe"];
  }

  /** Ends the subscriptions of a WebSocket connection that closed. */
  endSession(session: RpcSession): void {
    this.#subscriptions.end(session);
  }

  /**
   * Answers one call: its result, or a JsonRpcError. `session`: the WebSocket connection it came
   * over, where subscriptions send their notifications (none over HTTP).
   */
  async answer(method: string, params: unknown, session?: RpcSession): Promise<unknown> {
    if (method === "eth_subscribe" || method === "eth_unsubscribe") {
      if (params !== undefined && !Array.isArray(params)) {
        throw new JsonRpcError("INVALID_PARAMS", `${method}: params must be an array`);
      }
      return method === "eth_subscribe"
        ? this.#subscriptions.subscribe(params ?? [], session)
        : this.#subscriptions.unsubscribe(params ?? [], session);
    }
    const run = this.#methods.get(method);
    if (run === undefined) {
      throw new JsonRpcError(
        "METHOD_NOT_FOUND",
        `the method ${method} does not exist/is not available`,
      );
    }
    if (params !== undefined && !Array.isArray(params)) {
      throw new JsonRpcError("INVALID_PARAMS", `${method}: params must be an array`);
    }
    return run(params ?? []);
  }

  /** The most gas a call or transaction may have: the block's limit, EIP-7825's cap from Osaka on. */
  #gasCap(): bigint {
    const limit = this.#chain.head.header.gasLimit;
    const common = this.#chain.vm.common;
    if (!common.isActivatedEIP(7825)) return limit;
    return EIP7825_TX_GAS_CAP < limit ? EIP7825_TX_GAS_CAP : limit;
  }

  #nextBaseFee(): bigint {
    const head = this.#chain.head;
    return head.header.baseFeePerGas === undefined ? 0n : head.header.calcNextBaseFee();
  }

  /**
   * The next block as calls and fee queries see it (number, parent, the devnet's slot and
   * coinbase, base fee, excess blob gas), built once per head.
   */
  #pendingBlock(): Block {
    const head = this.#chain.head;
    if (this.#pending?.parent === head) return this.#pending.block;
    const common = this.#chain.vm.common;
    const block = createBlock(
      {
        header: {
          number: head.header.number + 1n,
          parentHash: head.hash(),
          timestamp: head.header.timestamp + DEVNET_SLOT_SECONDS,
          gasLimit: head.header.gasLimit,
          coinbase: DEVNET_COINBASE,
          baseFeePerGas: head.header.baseFeePerGas === undefined ? undefined : this.#nextBaseFee(),
          ...(head.header.excessBlobGas !== undefined
            ? { excessBlobGas: head.header.calcNextExcessBlobGas(common), blobGasUsed: 0n }
            : {}),
        },
      },
      { common, setHardfork: true },
    );
    this.#pending = { parent: head, block };
    return block;
  }

  /** Reads the state of param 0 (an address) at the block of param 1, the latest only. */
  #account<T>(p: Params, method: string, read: (a: Address) => Promise<T>): Promise<T> {
    arity(p, method, 1, 2);
    const address = addressParam(p[0], `${method} param 0`);
    // Checked inside: a block mined meanwhile would make "the head" another block.
    return this.#chain.exclusive(() => {
      this.#latestOnly(p[1], method, 1);
      return read(address);
    });
  }

  #getStorageAt(p: Params): Promise<string> {
    arity(p, "eth_getStorageAt", 2, 3);
    const address = addressParam(p[0], "eth_getStorageAt param 0");
    // As geth's decodeHash: 0x-hex of at most 32 bytes, leading zeros or not, odd length too.
    const digits = hexString(p[1], "eth_getStorageAt param 1").slice(2);
    if (digits.length > 64) {
      throw new JsonRpcError(
        "INVALID_PARAMS",
        `eth_getStorageAt param 1: a storage slot is at most 32 bytes, got ${shown(p[1])}`,
      );
    }
    const key = hexToBytes(`0x${digits.padStart(64, "0")}`);
    return this.#chain.exclusive(async () => {
      this.#latestOnly(p[2], "eth_getStorageAt", 2);
      const value = await this.#chain.state.getStorage(address, key);
      return `0x${bytesToHex(value).slice(2).padStart(64, "0")}`;
    });
  }

  /** Refuses a block other than the head for a state query (the tree keeps no older states). */
  #latestOnly(tag: unknown, method: string, index: number): void {
    if (tag === undefined) return;
    const block = this.#resolveTag(tag, `${method} param ${index}`);
    if (block === undefined || block.header.number !== this.#chain.head.header.number) {
      const named = typeof tag === "string" ? tag : JSON.stringify(tag);
      throw new JsonRpcError(
        "REJECTED",
        `${method}: the state of block ${named} is not kept: this devnet answers state queries at the latest block (${this.#chain.head.header.number}) only`,
      );
    }
  }

  /** A block tag, number or `{blockHash}`/`{blockNumber}` object → the block, or undefined. */
  #resolveTag(tag: unknown, what: string): Block | undefined {
    if (isHeadTag(tag)) return this.#chain.head;
    if (tag === "earliest") return this.#chain.genesisBlock;
    if (typeof tag === "object" && tag !== null && !Array.isArray(tag)) {
      const record = tag as Record<string, unknown>;
      if (record.blockHash !== undefined) {
        const block = this.#chain.blockByHash(hashParam(record.blockHash, `${what}.blockHash`));
        if (block === undefined) {
          throw new JsonRpcError(
            "REJECTED",
            `${what}: header for hash ${String(record.blockHash)} not found`,
          );
        }
        return block;
      }
      if (record.blockNumber !== undefined) return this.#resolveTag(record.blockNumber, what);
    }
    if (typeof tag === "string" && /^0x[0-9a-fA-F]+$/.test(tag)) {
      return this.#chain.block(quantityParam(tag, what));
    }
    throw new JsonRpcError(
      "INVALID_PARAMS",
      `${what}: a block number (0x-hex), "latest", "pending", "safe", "finalized", "earliest" or {"blockHash"}, got ${shown(tag)}`,
    );
  }

  #blockAt(p: Params, index: number, method: string, most: number): Block | undefined {
    arity(p, method, index + 1, most);
    return this.#resolveTag(p[index], `${method} param ${index}`);
  }

  #blockWithHash(p: Params, method: string, most: number): Block | undefined {
    arity(p, method, 1, most);
    return this.#chain.blockByHash(hashParam(p[0], `${method} param 0`));
  }

  #countOf(block: Block | undefined): string | null {
    return block === undefined ? null : rpcQuantity(block.transactions.length);
  }

  #getBlockByNumber(p: Params): unknown {
    const block = this.#blockAt(p, 0, "eth_getBlockByNumber", 2);
    const full = boolParam(p[1], "eth_getBlockByNumber param 1");
    return block === undefined ? null : blockJson(block, full);
  }

  #getBlockByHash(p: Params): unknown {
    const block = this.#blockWithHash(p, "eth_getBlockByHash", 2);
    const full = boolParam(p[1], "eth_getBlockByHash param 1");
    return block === undefined ? null : blockJson(block, full);
  }

  /**
   * execution-apis' eth_feeHistory, as geth computes it: per block its base fee (and the next
   * block's after the newest), gas used over the limit, and per reward percentile the effective
   * tip of the transaction at that share of the block's gas (transactions by tip, weighted by
   * the gas each used); from Cancun on the blob base fees and blob gas ratios too.
   */
  #feeHistory(p: Params): unknown {
    arity(p, "eth_feeHistory", 2, 3);
    const what = "eth_feeHistory";
    // A quantity, or (as geth's math.HexOrDecimal64 also takes) a plain JSON integer.
    if (typeof p[0] === "number" && !(Number.isSafeInteger(p[0]) && p[0] >= 0)) {
      throw new JsonRpcError("INVALID_PARAMS", `${what} param 0: a block count, got ${p[0]}`);
    }
    const requested =
      typeof p[0] === "number" ? BigInt(p[0]) : quantityParam(p[0], `${what} param 0`, 8);
    const newest = this.#resolveTag(p[1], `${what} param 1`);
    const percentiles = percentilesParam(p[2], `${what} param 2`);
    if (newest === undefined) {
      throw new JsonRpcError("REJECTED", `${what}: block ${shown(p[1])} is past the head`);
    }
    if (requested === 0n) return { oldestBlock: "0x0", baseFeePerGas: [], gasUsedRatio: [] };
    const last = newest.header.number;
    const count = requested > 1024n ? 1024n : requested;
    const oldest = last - count + 1n < 0n ? 0n : last - count + 1n;
    const blocks: Block[] = [];
    for (let n = oldest; n <= last; n++) blocks.push(this.#chain.block(n)!);
    // The block after the newest: the next one to come where the newest is the head.
    const next =
      last === this.#chain.head.header.number
        ? this.#pendingBlock()
        : this.#chain.block(last + 1n)!;
    const out: Record<string, unknown> = {
      oldestBlock: rpcQuantity(oldest),
      baseFeePerGas: [
        ...blocks.map((b) => rpcQuantity(b.header.baseFeePerGas ?? 0n)),
        rpcQuantity(next.header.baseFeePerGas ?? 0n),
      ],
      gasUsedRatio: blocks.map((b) => Number(b.header.gasUsed) / Number(b.header.gasLimit)),
    };
    if (percentiles !== undefined) {
      out.reward = blocks.map((b) => this.#rewards(b, percentiles).map(rpcQuantity));
    }
    if (newest.header.excessBlobGas !== undefined) {
      const max = this.#chain.vm.common.getBlobGasSchedule().maxBlobGasPerBlock;
      out.baseFeePerBlobGas = [
        ...blocks.map((b) => rpcQuantity(b.header.getBlobGasPrice())),
        rpcQuantity(next.header.getBlobGasPrice()),
      ];
      out.blobGasUsedRatio = blocks.map((b) => Number(b.header.blobGasUsed ?? 0n) / Number(max));
    }
    return out;
  }

  /** The effective tips at `percentiles` of block `block`'s gas (zeros for an empty block). */
  #rewards(block: Block, percentiles: readonly number[]): bigint[] {
    const mined = this.#chain.minedBlock(block.header.number);
    if (mined === undefined || mined.transactions.length === 0) return percentiles.map(() => 0n);
    const baseFee = block.header.baseFeePerGas ?? 0n;
    const sorted = mined.transactions
      .map((t) => ({
        tip: effectiveGasPrice(t.tx, block) - baseFee,
        gas: transactionGasUsed(mined, t.index),
      }))
      .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
    const used = Number(block.header.gasUsed);
    return percentiles.map((percentile) => {
      const threshold = (used * percentile) / 100;
      let sum = 0;
      for (const t of sorted) {
        sum += Number(t.gas);
        if (sum >= threshold) return t.tip;
      }
      return sorted[sorted.length - 1]!.tip;
    });
  }

  /** Transaction param 1 (an index) of the block param 0 names, or null (no block, no such index). */
  #transactionAt(
    p: Params,
    method: string,
    blockOf: (method: string) => Block | undefined,
  ): unknown {
    arity(p, method, 2, 2);
    const block = blockOf(method);
    const index = quantityParam(p[1], `${method} param 1`, 8);
    if (block === undefined || index >= BigInt(block.transactions.length)) return null;
    return transactionJson(block.transactions[Number(index)]!, block, Number(index));
  }

  #getTransactionByHash(p: Params): unknown {
    arity(p, "eth_getTransactionByHash", 1, 1);
    const place = this.#chain.transaction(hashParam(p[0], "eth_getTransactionByHash param 0"));
    if (place === undefined) return null;
    const { block, transactions } = place.mined;
    return transactionJson(transactions[place.index]!.tx, block, place.index);
  }

  #getTransactionReceipt(p: Params): unknown {
    arity(p, "eth_getTransactionReceipt", 1, 1);
    const place = this.#chain.transaction(hashParam(p[0], "eth_getTransactionReceipt param 0"));
    return place === undefined ? null : receiptJson(place.mined, place.index);
  }

  #getBlockReceipts(p: Params): unknown {
    const block = this.#blockAt(p, 0, "eth_getBlockReceipts", 1);
    if (block === undefined) return null;
    const mined = this.#chain.minedBlock(block.header.number);
    return mined === undefined ? [] : mined.transactions.map((_, i) => receiptJson(mined, i));
  }

  #getLogs(p: Params): unknown {
    arity(p, "eth_getLogs", 1, 1);
    const filter = logFilterParam(p[0], "eth_getLogs param 0");
    const range = this.#range(filter, "eth_getLogs param 0");
    return range === undefined ? [] : this.#logs(filter, range.from, range.to);
  }

  /** The blocks a log filter covers now ("latest" moves), or undefined for none. */
  #range(filter: LogFilter, what: string): { from: bigint; to: bigint } | undefined {
    if (filter.blockHash !== undefined) {
      const block = this.#chain.blockByHash(filter.blockHash);
      return block === undefined
        ? undefined
        : { from: block.header.number, to: block.header.number };
    }
    const head = this.#chain.head.header.number;
    const from =
      this.#resolveTag(filter.fromBlock ?? "latest", `${what}.fromBlock`)?.header.number ??
      head + 1n;
    const to =
      this.#resolveTag(filter.toBlock ?? "latest", `${what}.toBlock`)?.header.number ?? head;
    if (from > to) return undefined;
    if (to - from >= MAX_LOG_BLOCKS) {
      throw new JsonRpcError(
        "REJECTED",
        `${what}: more than ${MAX_LOG_BLOCKS} blocks in one query`,
      );
    }
    return { from, to };
  }

  /** The logs of blocks from..to (at most the head) that the filter's addresses and topics match. */
  #logs(filter: LogFilter, from: bigint, to: bigint): unknown[] {
    const out: unknown[] = [];
    for (let n = from; n <= to; n++) {
      const mined = this.#chain.minedBlock(n);
      if (mined === undefined) continue;
      for (const log of blockLogs(mined)) {
        if (logMatches(filter, log)) out.push(log);
      }
    }
    return out;
  }

  #newFilter(p: Params): string {
    arity(p, "eth_newFilter", 1, 1);
    const filter = logFilterParam(p[0], "eth_newFilter param 0");
    // Checked now, as geth does: a filter whose blocks can never be read is refused at once.
    this.#range(filter, "eth_newFilter param 0");
    return this.#install({ kind: "logs", filter });
  }

  #install(kind: { kind: "blocks" } | { kind: "logs"; filter: LogFilter }): string {
    this.#dropStaleFilters();
    const id = rpcQuantity(++this.#lastFilterId);
    this.#filters.set(id, {
      ...kind,
      next: this.#chain.head.header.number + 1n,
      polled: Date.now(),
    });
    return id;
  }

  /** Forgets filters nobody polled for FILTER_TIMEOUT_MS (geth's five minutes). */
  #dropStaleFilters(): void {
    const now = Date.now();
    for (const [id, f] of this.#filters)
      if (now - f.polled > FILTER_TIMEOUT_MS) this.#filters.delete(id);
  }

  #filterOf(p: Params, method: string): InstalledFilter {
    arity(p, method, 1, 1);
    this.#dropStaleFilters();
    const id = typeof p[0] === "string" ? p[0].toLowerCase() : undefined;
    const filter = id === undefined ? undefined : this.#filters.get(id);
    if (filter === undefined) throw new JsonRpcError("REJECTED", "filter not found");
    filter.polled = Date.now();
    return filter;
  }

  /** What happened since the filter's last poll: new block hashes, or new matching logs. */
  #getFilterChanges(p: Params): unknown {
    const filter = this.#filterOf(p, "eth_getFilterChanges");
    const head = this.#chain.head.header.number;
    const from = filter.next;
    filter.next = head + 1n;
    if (filter.kind === "blocks") {
      const hashes: string[] = [];
      for (let n = from; n <= head; n++) hashes.push(bytesToHex(this.#chain.block(n)!.hash()));
      return hashes;
    }
    // As geth's log filters: every new block's logs, within the blocks the filter names; a
    // moving tag ("latest", the default) bounds nothing, the poll cursor does.
    const { blockHash, fromBlock, toBlock } = filter.filter;
    const moving = (tag: unknown) => tag === undefined || isHeadTag(tag);
    let lower = from;
    let upper = head;
    if (blockHash !== undefined) {
      const block = this.#chain.blockByHash(blockHash);
      if (block === undefined) return [];
      lower = upper = block.header.number;
    } else {
      if (!moving(fromBlock)) {
        lower =
          this.#resolveTag(fromBlock, "eth_getFilterChanges fromBlock")?.header.number ?? head + 1n;
      }
      if (!moving(toBlock)) {
        upper = this.#resolveTag(toBlock, "eth_getFilterChanges toBlock")?.header.number ?? head;
      }
    }
    // biome-ignore lint/complexity/useMathMinMax: bigints (Math.max takes numbers)
    const start = lower > from ? lower : from;
    return start > upper ? [] : this.#logs(filter.filter, start, upper);
  }

  #getFilterLogs(p: Params): unknown {
    const filter = this.#filterOf(p, "eth_getFilterLogs");
    if (filter.kind !== "logs") throw new JsonRpcError("REJECTED", "filter not found");
    const range = this.#range(filter.filter, "eth_getFilterLogs");
    return range === undefined ? [] : this.#logs(filter.filter, range.from, range.to);
  }

  async #sendRawTransaction(p: Params): Promise<string> {
    arity(p, "eth_sendRawTransaction", 1, 1);
    const raw = bytesParam(p[0], "eth_sendRawTransaction param 0");
    let tx: TypedTransaction;
    try {
      tx = createTxFromRLP(raw, { common: this.#chain.vm.common });
    } catch (cause) {
      throw new JsonRpcError(
        "INVALID_PARAMS",
        `eth_sendRawTransaction: not a transaction: ${messageOf(cause)}`,
      );
    }
    return this.#include(tx);
  }

  async #sendTransaction(p: Params): Promise<string> {
    arity(p, "eth_sendTransaction", 1, 1);
    const request = callParam(p[0], "eth_sendTransaction param 0");
    const account = this.#signer(request.from, "eth_sendTransaction");
    // Nonce, estimate and block in one exclusive step: nothing comes in between.
    return this.#chain.exclusive(async () => {
      const nonce =
        request.nonce ?? (await this.#chain.state.getAccount(account.address))?.nonce ?? 0n;
      const gas = request.gas ?? (await this.#estimate(request));
      return this.#include(this.#transaction(request, nonce, gas).sign(account.key), true);
    });
  }

  /** The dev account `address` names, whose key the node signs with; -32000 for any other. */
  #signer(address: Address | undefined, method: string): DevAccount {
    const account = this.#accounts.find((a) => address !== undefined && a.address.equals(address));
    if (account === undefined) {
      throw new JsonRpcError(
        "REJECTED",
        `${method}: unknown account ${address?.toString() ?? "(no from)"}: this node signs for the devnet's dev accounts only (eth_accounts)`,
      );
    }
    return account;
  }

  /**
   * geth's signature of an EIP-191 personal message (`"\x19Ethereum Signed Message:\n" + length
   * + data`, keccak-256) by a dev account: r ‖ s ‖ v, v 27 or 28.
   */
  #signMessage(addressValue: unknown, dataValue: unknown, method: string): string {
    const address = addressParam(addressValue, `${method} address`);
    const data = bytesParam(dataValue, `${method} data`);
    const account = this.#signer(address, method);
    const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${data.length}`);
    const message = new Uint8Array(prefix.length + data.length);
    message.set(prefix);
    message.set(data, prefix.length);
    const recovered = ecsign(keccak_256(message), account.key, {
      prehash: false,
      format: "recovered",
    });
    const out = new Uint8Array(65);
    out.set(recovered.subarray(1), 0);
    out[64] = 27 + recovered[0]!;
    return bytesToHex(out);
  }

  /**
   * Mines `tx` into a block of its own (`held`: the caller is inside exclusive); geth's -32000
   * answer, with the library's reason, where the block cannot take it.
   */
  async #include(tx: TypedTransaction, held = false): Promise<string> {
    if (!tx.isSigned()) throw new JsonRpcError("INVALID_PARAMS", "the transaction is not signed");
    try {
      await (held ? this.#chain.mineHeld([tx]) : this.#chain.mine([tx]));
    } catch (cause) {
      if (cause instanceof TransactionRefused) {
        throw new JsonRpcError("REJECTED", cause.reason);
      }
      throw cause;
    }
    return bytesToHex(tx.hash());
  }

  /**
   * A transaction from a call object: the type asked for, else as geth chooses it (below); fees
   * from the next block's base fee (the devnet's forks all have EIP-1559).
   */
  #transaction(request: CallRequest, nonce: bigint, gas: bigint): TypedTransaction {
    const common = this.#chain.vm.common;
    const chainId = common.chainId();
    if (request.chainId !== undefined && request.chainId !== chainId) {
      throw new JsonRpcError(
        "REJECTED",
        `invalid chain id ${request.chainId}: this chain is ${chainId}`,
      );
    }
    const baseFee = this.#nextBaseFee();
    // As geth's TransactionArgs: a gas price makes a legacy transaction (an access-list one
    // with an access list), anything else an EIP-1559 one.
    const type =
      request.type ??
      (request.gasPrice === undefined ? 2 : request.accessList === undefined ? 0 : 1);
    const fees =
      type === 2
        ? {
            maxPriorityFeePerGas: request.maxPriorityFeePerGas ?? SUGGESTED_TIP,
            maxFeePerGas: request.maxFeePerGas ?? 2n * baseFee + SUGGESTED_TIP,
          }
        : { gasPrice: request.gasPrice ?? baseFee + SUGGESTED_TIP };
    const data = {
      type,
      chainId,
      nonce,
      gasLimit: gas,
      to: request.to,
      value: request.value ?? 0n,
      data: request.data ?? new Uint8Array(0),
      ...fees,
      ...(type === 0 ? {} : { accessList: request.accessList ?? [] }),
    };
    try {
      return createTx(data, { common, freeze: false });
    } catch (cause) {
      throw new JsonRpcError(
        "INVALID_PARAMS",
        `the call object makes no transaction: ${libraryReason(cause)}`,
      );
    }
  }

  /** Runs a call object as a transaction on the head state, taken back after (see speculate). */
  async #run(request: CallRequest, gas: bigint): Promise<RunTxResult> {
    const from = request.from ?? new Address(new Uint8Array(20));
    const account = await this.#chain.state.getAccount(from);
    // geth's buyGas check for a call: the value, plus the gas at the fee cap where one is given
    // (none given: the call pays nothing). The library's skipBalance would raise the balance.
    const feeCap = request.gasPrice ?? request.maxFeePerGas ?? 0n;
    const want = gas * feeCap + (request.value ?? 0n);
    const have = account?.balance ?? 0n;
    if (have < want) {
      throw new JsonRpcError(
        "REJECTED",
        `insufficient funds for gas * price + value: address ${from.toString()} have ${have} want ${want}`,
      );
    }
    const nonce = account?.nonce ?? 0n;
    const tx = this.#transaction(request, nonce, gas).sign(CALL_KEY);
    // The call runs as `from`: its signature is a placeholder (never checked, never mined).
    Object.defineProperty(tx, "getSenderAddress", { value: () => from });
    const block = this.#pendingBlock();
    return runTx(this.#chain.vm, {
      tx,
      block,
      skipBalance: true,
      skipBlockGasLimitValidation: true,
      skipHardForkValidation: true,
    });
  }

  async #call(p: Params): Promise<string> {
    arity(p, "eth_call", 1, 2);
    const request = callParam(p[0], "eth_call param 0");
    const result = await this.#chain.speculate(() => {
      this.#latestOnly(p[1], "eth_call", 1);
      return this.#run(request, request.gas ?? this.#gasCap()).catch(rejected);
    });
    return outcome(result);
  }

  async #estimateGas(p: Params): Promise<string> {
    arity(p, "eth_estimateGas", 1, 2);
    const request = callParam(p[0], "eth_estimateGas param 0");
    return rpcQuantity(
      await this.#chain.exclusive(() => {
        this.#latestOnly(p[1], "eth_estimateGas", 1);
        return this.#estimate(request);
      }),
    );
  }

  /**
   * geth's estimate: the least gas limit with which the call succeeds, by bisection between
   * the gas it used with the full limit and that limit (each run taken back). Inside exclusive.
   */
  async #estimate(request: CallRequest): Promise<bigint> {
    let cap = request.gas ?? this.#gasCap();
    // As geth: with a fee cap, no more gas than the sender's balance left after the value pays.
    const feeCap = request.gasPrice ?? request.maxFeePerGas ?? 0n;
    if (feeCap > 0n) {
      const from = request.from ?? new Address(new Uint8Array(20));
      const balance = (await this.#chain.state.getAccount(from))?.balance ?? 0n;
      const value = request.value ?? 0n;
      const allowance = balance > value ? (balance - value) / feeCap : 0n;
      if (allowance < cap) cap = allowance;
    }
    // Each run taken back; a run the library refuses (a fee under the base fee…) is a failure.
    const attempt = async (gas: bigint): Promise<RunTxResult | Error> => {
      await this.#chain.vm.evm.journal.checkpoint();
      try {
        return await this.#run(request, gas);
      } catch (cause) {
        return cause instanceof Error ? cause : new Error(String(cause));
      } finally {
        await this.#chain.vm.evm.journal.revert();
      }
    };
    const succeeds = (r: RunTxResult | Error) =>
      !(r instanceof Error) && r.execResult.exceptionError === undefined;
    const full = await attempt(cap);
    if (full instanceof Error) rejected(full);
    // A call that fails with all the gas there is: its revert or halt, as eth_call gives it.
    outcome(full);
    let lo = full.totalGasSpent - 1n;
    let hi = cap;
    // geth's first guess: what it used, plus the 1/63 a call may keep back.
    const guess = (full.totalGasSpent * 64n) / 63n;
    if (guess < hi) {
      if (succeeds(await attempt(guess))) hi = guess;
      else lo = guess;
    }
    while (lo + 1n < hi) {
      const mid = (lo + hi) / 2n;
      if (succeeds(await attempt(mid))) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  /**
   * A proof of `keys` (32-byte tree keys) at the head: core's compact multi-key proof as
   * `bintrie prove` prints it, `{root, scheme, keys, proof}` (bintrie verify-proof checks it).
   */
  async #getProof(p: Params): Promise<unknown> {
    arity(p, "bintrie_getProof", 1, 2);
    const keys = listParam(p[0], "bintrie_getProof param 0").map((k, i) => {
      const key = bytesParam(k, `bintrie_getProof param 0[${i}]`);
      if (key.length !== 32) {
        throw new JsonRpcError(
          "INVALID_PARAMS",
          `bintrie_getProof param 0[${i}]: a tree key is 32 bytes, got ${key.length}`,
        );
      }
      return key;
    });
    if (keys.length === 0)
      throw new JsonRpcError("INVALID_PARAMS", "bintrie_getProof param 0: no keys");
    return this.#chain.exclusive(async () => {
      this.#latestOnly(p[1], "bintrie_getProof", 1);
      const tree = this.#chain.state.binaryTree;
      let proof: Uint8Array;
      try {
        proof = await prove(tree, keys);
      } catch (cause) {
        // The one refusal a tree gives: an absence whose only evidence is a stem without values.
        if ((cause as { name?: unknown }).name !== "ProofError") throw cause;
        throw new JsonRpcError("REJECTED", `bintrie_getProof: ${(cause as Error).message}`);
      }
      const scheme: KeyScheme = tree.scheme;
      return {
        root: bytesToHex(tree.hash()),
        scheme,
        keys: keys.map((k) => bytesToHex(k)),
        proof: bytesToHex(proof),
      };
    });
  }
}

/** geth forgets a filter nobody polled for five minutes. */
const FILTER_TIMEOUT_MS = 5 * 60 * 1000;

/** An installed filter: what it watches, the first block its next poll reports, its last poll. */
type InstalledFilter = (
  | { readonly kind: "blocks" }
  | { readonly kind: "logs"; readonly filter: LogFilter }
) & {
  next: bigint;
  polled: number;
};

/** A placeholder key for the signature of calls (their sender is set, not recovered). */
const CALL_KEY = hexToBytes(`0x${"00".repeat(31)}01`);

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
