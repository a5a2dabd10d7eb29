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

export function topicsMatch(
  filter: readonly (readonly string[] | undefined)[],
  topics: readonly string[],
): boolean {
  if (filter.length > topics.length) return false;
  return filter.every((wanted, i) => wanted === undefined || wanted.includes(topics[i]!));
}
