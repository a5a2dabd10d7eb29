import { JsonRpcError } from "./json-rpc-error.js";
import { addressParam, hashParam, listParam, objectParam, topicsParam } from "./rpc-params.js";

/** A log filter's fields, parsed (its block tags resolved at each query: "latest" moves). */
export interface LogFilter {
  readonly blockHash?: string;
  readonly fromBlock?: unknown;
  readonly toBlock?: unknown;
  readonly addresses: readonly string[];
  readonly topics: readonly (readonly string[] | undefined)[];
}

/** A log filter object (eth_getLogs, eth_newFilter, eth_subscribe logs), naming the field at fault. */
export function logFilterParam(value: unknown, what: string): LogFilter {
  const o = objectParam(value, what, ["fromBlock", "toBlock", "address", "topics", "blockHash"]);
  if (o.blockHash !== undefined && (o.fromBlock !== undefined || o.toBlock !== undefined)) {
    throw new JsonRpcError("INVALID_PARAMS", `${what}: blockHash excludes fromBlock and toBlock`);
  }
  return {
    ...(o.blockHash === undefined
      ? {}
      : { blockHash: hashParam(o.blockHash, `${what}.blockHash`) }),
    fromBlock: o.fromBlock,
    toBlock: o.toBlock,
    addresses: listParam(o.address, `${what}.address`).map((a, i): string =>
      addressParam(a, `${what}.address[${i}]`).toString(),
    ),
    topics: topicsParam(o.topics, `${what}.topics`),
  };
}

/** Whether a log (as rpc-json writes it) is one the filter's addresses and topics match. */
export function logMatches(filter: LogFilter, log: Record<string, unknown>): boolean {
  if (filter.addresses.length > 0 && !filter.addresses.includes(log.address as string))
    return false;
  return topicsMatch(filter.topics, log.topics as string[]);
}

/** The tags naming the head, which moves as blocks come ("latest", and on a devnet the rest). */
export function isHeadTag(tag: unknown): boolean {
  return tag === "latest" || tag === "pending" || tag === "safe" || tag === "finalized";
}

function topicsMatch(
  filter: readonly (readonly string[] | undefined)[],
  topics: readonly string[],
): boolean {
  if (filter.length > topics.length) return false;
  return filter.every((wanted, i) => wanted === undefined || wanted.includes(topics[i]!));
}
