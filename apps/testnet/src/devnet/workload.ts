import { type Address, createAddressFromPrivateKey, createContractAddress } from "@ethereumjs/util";
import { keccak_256 } from "@noble/hashes/sha3.js";
import {
  deployCode,
  STORAGE_WRITER_RUNTIME,
  selfDestructingInit,
  storageWriteCall,
} from "./contracts.js";
import type { DevAccount } from "./dev-accounts.js";

/** One transaction to sign and include. */
export interface PlannedTx {
  readonly from: DevAccount;
  readonly nonce: bigint;
  readonly to: Address | undefined;
  readonly value: bigint;
  readonly data: Uint8Array;
  readonly gasLimit: bigint;
  readonly kind:
    | "transfer"
    | "deploy"
    | "storage-write"
    | "storage-clear"
    | "counter"
    | "selfdestruct";
}

/** What the workload knows about the chain so far. */
export interface WorkloadState {
  readonly accounts: readonly DevAccount[];
  readonly nonces: Map<string, bigint>;
  /** STORAGE_WRITER contracts (genesis and deployed) and the slots written to each. */
  readonly writers: { address: Address; slots: bigint[] }[];
  readonly counter: Address | undefined;
  /** Fresh addresses created by transfers so far. */
  fresh: number;
}

/** mulberry32: a small seeded PRNG, so a devnet run is reproducible from its seed. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ETHER = 10n ** 18n;

/**
 * The transactions of one block: value transfers (some to fresh addresses), a contract
 * deployment, storage writes (some of them zeroing an earlier slot), a counter increment and,
 * every fourth block, a contract that self-destructs in its own creation transaction.
 */
export function planBlock(state: WorkloadState, block: number, random: () => number): PlannedTx[] {
  const txs: PlannedTx[] = [];
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const next = (from: DevAccount): bigint => {
    const key = from.address.toString();
    const nonce = state.nonces.get(key) ?? 0n;
    state.nonces.set(key, nonce + 1n);
    return nonce;
  };
  const sender = (i: number): DevAccount =>
    state.accounts[(block * 7 + i) % state.accounts.length]!;

  for (let i = 0; i < 4; i++) {
    const from = sender(i);
    const toFresh = random() < 0.4;
    const to = toFresh ? freshAddress(state.fresh++) : pick(state.accounts).address;
    const value = BigInt(1 + Math.floor(random() * 1000)) * (ETHER / 1000n);
    txs.push({
      from,
      nonce: next(from),
      to,
      value,
      data: new Uint8Array(0),
      gasLimit: 21_000n,
      kind: "transfer",
    });
  }

  const deployer = sender(4);
  const deployNonce = next(deployer);
  txs.push({
    from: deployer,
    nonce: deployNonce,
    to: undefined,
    value: 0n,
    data: deployCode(STORAGE_WRITER_RUNTIME),
    gasLimit: 200_000n,
    kind: "deploy",
  });
  const deployed = createContractAddress(deployer.address, deployNonce);

  for (let i = 0; i < 3 && state.writers.length > 0; i++) {
    const writer = pick(state.writers);
    const from = sender(5 + i);
    const clear = writer.slots.length > 0 && random() < 0.25;
    const slot = clear
      ? pick(writer.slots)
      : random() < 0.5
        ? BigInt(Math.floor(random() * 64)) // header storage (slots 0..63 share the account stem)
        : BigInt(Math.floor(random() * 2 ** 32)) << 200n; // main storage, far apart
    const value = clear ? 0n : BigInt(1 + Math.floor(random() * 2 ** 48));
    if (!clear) writer.slots.push(slot);
    txs.push({
      from,
      nonce: next(from),
      to: writer.address,
      value: 0n,
      data: storageWriteCall(slot, value),
      gasLimit: 100_000n,
      kind: clear ? "storage-clear" : "storage-write",
    });
  }

  if (state.counter !== undefined) {
    const from = sender(8);
    txs.push({
      from,
      nonce: next(from),
      to: state.counter,
      value: 0n,
      data: new Uint8Array(0),
      gasLimit: 60_000n,
      kind: "counter",
    });
  }

  if (block % 4 === 0) {
    const from = sender(9);
    txs.push({
      from,
      nonce: next(from),
      to: undefined,
      value: ETHER / 100n,
      data: selfDestructingInit(pick(state.accounts).address.bytes),
      gasLimit: 150_000n,
      kind: "selfdestruct",
    });
  }

  // Known to the workload only from the next block on, once the deployment is in the chain.
  state.writers.push({ address: deployed, slots: [1n] });
  return txs;
}

/** A deterministic never-funded address for transfers that create accounts. */
export function freshAddress(index: number): Address {
  const key = keccak_256(new TextEncoder().encode(`bintrie-testnet devnet fresh ${index}`));
  return createAddressFromPrivateKey(key);
}
