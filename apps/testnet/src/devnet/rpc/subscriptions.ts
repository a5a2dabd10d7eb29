import type { DevnetChain, MinedBlock } from "../devnet-chain.js";
import { JsonRpcError } from "./json-rpc-error.js";
import { type LogFilter, logFilterParam, logMatches } from "./log-filter.js";
import { blockJson, blockLogs, rpcQuantity } from "./rpc-json.js";
import { arity, type Params, shown } from "./rpc-params.js";

/** Where a subscription's notifications go: one WebSocket connection. */
export interface RpcSession {
  /** Sends `{"jsonrpc":"2.0","method":"eth_subscription","params":{subscription, result}}`. */
  notify(subscription: string, result: unknown): void;
}

type Subscription =
  | { readonly kind: "newHeads"; readonly session: RpcSession }
  | { readonly kind: "logs"; readonly session: RpcSession; readonly filter: LogFilter };

/**
 * eth_subscribe and eth_unsubscribe (geth's pub/sub over a WebSocket): `newHeads` notifies each
 * new block's header, `logs` each new log a filter matches (address and topics; block ranges
 * mean nothing for blocks yet to come, as in geth). A subscription belongs to the session that
 * made it and ends with it.
 */
export class Subscriptions {
  readonly #chain: DevnetChain;
  readonly #all = new Map<string, Subscription>();
  #lastId = 0;
  #unwatch: (() => void) | undefined;

  constructor(chain: DevnetChain) {
    this.#chain = chain;
  }

  subscribe(p: Params, session: RpcSession | undefined): string {
    if (session === undefined) {
      throw new JsonRpcError(
        "METHOD_NOT_FOUND",
        "notifications not supported (eth_subscribe needs a WebSocket)",
      );
    }
    arity(p, "eth_subscribe", 1, 2);
    let subscription: Subscription;
    if (p[0] === "newHeads") {
      arity(p, "eth_subscribe newHeads", 1, 1);
      subscription = { kind: "newHeads", session };
    } else if (p[0] === "logs") {
      subscription = {
        kind: "logs",
        session,
        filter: logFilterParam(p[1] ?? {}, "eth_subscribe logs param 1"),
      };
    } else {
      throw new JsonRpcError(
        "INVALID_PARAMS",
        `eth_subscribe: no "${typeof p[0] === "string" ? p[0] : shown(p[0])}" subscription here ("newHeads" and "logs"; no transaction pool, so no "newPendingTransactions")`,
      );
    }
    // 16 bytes of hex, as geth's ids.
    const id = `0x${(++this.#lastId).toString(16).padStart(32, "0")}`;
    this.#all.set(id, subscription);
    this.#unwatch ??= this.#chain.watch((mined) => this.#announce(mined));
    return id;
  }

  /** Whether the session's subscription `id` was there (and is gone now). */
  unsubscribe(p: Params, session: RpcSession | undefined): boolean {
    arity(p, "eth_unsubscribe", 1, 1);
    const id = typeof p[0] === "string" ? p[0].toLowerCase() : undefined;
    const subscription = id === undefined ? undefined : this.#all.get(id);
    if (subscription === undefined || subscription.session !== session) return false;
    this.#all.delete(id!);
    this.#stopWatchingIfIdle();
    return true;
  }

  /** Ends every subscription of `session` (its connection closed). */
  end(session: RpcSession): void {
    for (const [id, s] of this.#all) if (s.session === session) this.#all.delete(id);
    this.#stopWatchingIfIdle();
  }

  #stopWatchingIfIdle(): void {
    if (this.#all.size === 0 && this.#unwatch !== undefined) {
      this.#unwatch();
      this.#unwatch = undefined;
    }
  }

  #announce(mined: MinedBlock): void {
    let header: Record<string, unknown> | undefined;
    let logs: Record<string, unknown>[] | undefined;
    for (const [id, s] of this.#all) {
      if (s.kind === "newHeads") {
        header ??= headerJson(mined);
        s.session.notify(id, header);
        continue;
      }
      logs ??= blockLogs(mined);
      for (const log of logs) if (logMatches(s.filter, log)) s.session.notify(id, log);
    }
  }
}

/** A newHeads notification: the block's header fields and hash (geth sends no body fields). */
function headerJson(mined: MinedBlock): Record<string, unknown> {
  const {
    transactions: _t,
    uncles: _u,
    size: _s,
    withdrawals: _w,
    ...header
  } = blockJson(mined.block, false);
  return { ...header, number: rpcQuantity(mined.block.header.number) };
}
