import type { Block } from "@ethereumjs/block";
import type { TypedTransaction } from "@ethereumjs/tx";
import { bytesToHex, createContractAddress } from "@ethereumjs/util";
import type { MinedBlock } from "../devnet-chain.js";

/** A quantity as JSON-RPC writes it: minimal hex, "0x0" for zero. */
export function rpcQuantity(value: bigint | number): string {
  return `0x${value.toString(16)}`;
}

/**
 * A block as execution-apis' `Block` object: its transactions as hashes or, with `full`, as
 * transaction objects; the fork's optional fields where the header has them.
 */
export function blockJson(block: Block, full: boolean): Record<string, unknown> {
  const h = block.header;
  const hash = bytesToHex(block.hash());
  const out: Record<string, unknown> = {
    number: rpcQuantity(h.number),
    hash,
    parentHash: bytesToHex(h.parentHash),
    nonce: bytesToHex(h.nonce),
    sha3Uncles: bytesToHex(h.uncleHash),
    logsBloom: bytesToHex(h.logsBloom),
    transactionsRoot: bytesToHex(h.transactionsTrie),
    stateRoot: bytesToHex(h.stateRoot),
    receiptsRoot: bytesToHex(h.receiptTrie),
    miner: h.coinbase.toString(),
    difficulty: rpcQuantity(h.difficulty),
    extraData: bytesToHex(h.extraData),
    size: rpcQuantity(block.serialize().length),
    gasLimit: rpcQuantity(h.gasLimit),
    gasUsed: rpcQuantity(h.gasUsed),
    timestamp: rpcQuantity(h.timestamp),
    mixHash: bytesToHex(h.mixHash),
    transactions: block.transactions.map((tx, i) =>
      full ? transactionJson(tx, block, i) : bytesToHex(tx.hash()),
    ),
    uncles: block.uncleHeaders.map((u) => bytesToHex(u.hash())),
  };
  if (h.baseFeePerGas !== undefined) out.baseFeePerGas = rpcQuantity(h.baseFeePerGas);
  if (h.withdrawalsRoot !== undefined) {
    out.withdrawalsRoot = bytesToHex(h.withdrawalsRoot);
    out.withdrawals = (block.withdrawals ?? []).map((w) => ({
      index: rpcQuantity(w.index),
      validatorIndex: rpcQuantity(w.validatorIndex),
      address: w.address.toString(),
      amount: rpcQuantity(w.amount),
    }));
  }
  if (h.blobGasUsed !== undefined) out.blobGasUsed = rpcQuantity(h.blobGasUsed);
  if (h.excessBlobGas !== undefined) out.excessBlobGas = rpcQuantity(h.excessBlobGas);
  if (h.parentBeaconBlockRoot !== undefined) {
    out.parentBeaconBlockRoot = bytesToHex(h.parentBeaconBlockRoot);
  }
  if (h.requestsHash !== undefined) out.requestsHash = bytesToHex(h.requestsHash);
  return out;
}

/** A transaction as execution-apis' `TransactionInfo`: in block `block` at `index`. */
export function transactionJson(
  tx: TypedTransaction,
  block: Block,
  index: number,
): Record<string, unknown> {
  const json = tx.toJSON() as Record<string, unknown>;
  const out: Record<string, unknown> = {
    blockHash: bytesToHex(block.hash()),
    blockNumber: rpcQuantity(block.header.number),
    from: tx.getSenderAddress().toString(),
    gas: rpcQuantity(tx.gasLimit),
    gasPrice: rpcQuantity(effectiveGasPrice(tx, block)),
    hash: bytesToHex(tx.hash()),
    input: bytesToHex(tx.data),
    nonce: rpcQuantity(tx.nonce),
    to: tx.to === undefined ? null : tx.to.toString(),
    transactionIndex: rpcQuantity(index),
    value: rpcQuantity(tx.value),
    type: rpcQuantity(tx.type),
    v: rpcQuantity(tx.v ?? 0n),
    r: rpcQuantity(tx.r ?? 0n),
    s: rpcQuantity(tx.s ?? 0n),
  };
  if (tx.type !== 0) {
    out.chainId = rpcQuantity(tx.common.chainId());
    out.yParity = rpcQuantity(tx.v ?? 0n);
    out.accessList = json.accessList ?? [];
  } else if (tx.supports(155)) {
    out.chainId = rpcQuantity(tx.common.chainId());
  }
  if ("maxFeePerGas" in tx) {
    out.maxFeePerGas = rpcQuantity(tx.maxFeePerGas);
    out.maxPriorityFeePerGas = rpcQuantity(tx.maxPriorityFeePerGas);
  }
  if ("maxFeePerBlobGas" in tx) {
    out.maxFeePerBlobGas = rpcQuantity(tx.maxFeePerBlobGas);
    out.blobVersionedHashes = [...tx.blobVersionedHashes];
  }
  if (json.authorizationList !== undefined) out.authorizationList = json.authorizationList;
  return out;
}

/** What a transaction of `block` paid per gas: its gas price, or base fee plus the tip it allows. */
export function effectiveGasPrice(tx: TypedTransaction, block: Block): bigint {
  const baseFee = block.header.baseFeePerGas ?? 0n;
  if ("maxFeePerGas" in tx) {
    const tip =
      tx.maxPriorityFeePerGas < tx.maxFeePerGas - baseFee
        ? tx.maxPriorityFeePerGas
        : tx.maxFeePerGas - baseFee;
    return baseFee + tip;
  }
  return (tx as { gasPrice: bigint }).gasPrice;
}

/** Logs of a mined block in execution-apis' `Log` form, numbered across the block. */
export function blockLogs(mined: MinedBlock): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const t of mined.transactions) out.push(...logsOf(mined, t.index, out.length));
  return out;
}

/** The logs of transaction `index` of a mined block, numbered across the block as blockLogs does. */
export function transactionLogs(mined: MinedBlock, index: number): Record<string, unknown>[] {
  let first = 0;
  for (let i = 0; i < index; i++) first += mined.transactions[i]!.result.receipt.logs.length;
  return logsOf(mined, index, first);
}

function logsOf(mined: MinedBlock, index: number, first: number): Record<string, unknown>[] {
  const { block } = mined;
  const t = mined.transactions[index]!;
  const blockHash = bytesToHex(block.hash());
  const transactionHash = bytesToHex(t.tx.hash());
  return t.result.receipt.logs.map(([address, topics, data], k) => ({
    address: bytesToHex(address),
    topics: topics.map((topic) => bytesToHex(topic)),
    data: bytesToHex(data),
    blockNumber: rpcQuantity(block.header.number),
    transactionHash,
    transactionIndex: rpcQuantity(t.index),
    blockHash,
    logIndex: rpcQuantity(first + k),
    removed: false,
  }));
}

/** The gas transaction `index` of a mined block used: its cumulative gas less the one before's. */
export function transactionGasUsed(mined: MinedBlock, index: number): bigint {
  const { transactions } = mined;
  const before = index === 0 ? 0n : transactions[index - 1]!.result.receipt.cumulativeBlockGasUsed;
  return transactions[index]!.result.receipt.cumulativeBlockGasUsed - before;
}

/** The receipt of transaction `index` of a mined block, as execution-apis' `ReceiptInfo`. */
export function receiptJson(mined: MinedBlock, index: number): Record<string, unknown> {
  const { block, transactions } = mined;
  const { tx, result } = transactions[index]!;
  const receipt = result.receipt;
  const out: Record<string, unknown> = {
    transactionHash: bytesToHex(tx.hash()),
    transactionIndex: rpcQuantity(index),
    blockHash: bytesToHex(block.hash()),
    blockNumber: rpcQuantity(block.header.number),
    from: tx.getSenderAddress().toString(),
    to: tx.to === undefined ? null : tx.to.toString(),
    cumulativeGasUsed: rpcQuantity(receipt.cumulativeBlockGasUsed),
    gasUsed: rpcQuantity(transactionGasUsed(mined, index)),
    // As geth: the address a creation makes, whether or not it succeeded.
    contractAddress:
      tx.to === undefined
        ? createContractAddress(tx.getSenderAddress(), tx.nonce).toString()
        : null,
    logs: transactionLogs(mined, index),
    logsBloom: bytesToHex(receipt.bitvector),
    type: rpcQuantity(tx.type),
    status: rpcQuantity("status" in receipt ? receipt.status : 1),
    effectiveGasPrice: rpcQuantity(effectiveGasPrice(tx, block)),
  };
  if ("blobGasUsed" in receipt) {
    out.blobGasUsed = rpcQuantity(receipt.blobGasUsed);
    out.blobGasPrice = rpcQuantity(receipt.blobGasPrice);
  }
  return out;
}
