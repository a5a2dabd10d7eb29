import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import {
  bytesToHex,
  type GenesisAllocInput,
  GenesisError,
  goJsonField,
  type ParsedGenesisAccount,
  parseGenesisAlloc,
  parseGenesisJson,
} from "@bintrie/core";
import { TestnetError } from "../chain/testnet-error.js";
import type { FixtureAccount } from "../fixtures/blockchain-test.js";
import { hexToBytesLoose, padLeft, parseQuantity, quantityHex } from "../fixtures/hex.js";
import { ubtNetworkOf } from "../ubt/ubt-network.js";

/** The genesis file shipped with the package (prefunded dev accounts and two contracts). */
export const DEFAULT_DEVNET_GENESIS: string = fileURLToPath(
  new URL("../../genesis/devnet.json", import.meta.url),
);

/** The genesis `config` keys that decide a fixture's rules (copied into its `config`). */
export const RULE_CONFIG_KEYS: readonly string[] = [
  "shanghaiTime",
  "cancunTime",
  "pragueTime",
  "osakaTime",
  "ubtTime",
  "enableUBTAtGenesis",
];

/** Timestamp forks a genesis `config` can activate at 0, oldest first. */
const TIME_FORKS: readonly (readonly [string, string])[] = [
  ["Shanghai", "shanghaiTime"],
  ["Cancun", "cancunTime"],
  ["Prague", "pragueTime"],
  ["Osaka", "osakaTime"],
];

export interface DevnetGenesis {
  readonly chainId: number;
  /** The newest fork active at genesis, in fixture spelling (Paris, Shanghai, Cancun…). */
  readonly fork: string;
  readonly timestamp: bigint;
  readonly gasLimit: bigint;
  readonly baseFeePerGas: bigint;
  readonly extraData: Uint8Array;
  /** The genesis header's other fields as geth's `Genesis.ToBlock` fills them. */
  readonly difficulty: bigint;
  readonly mixHash: Uint8Array;
  readonly coinbase: Uint8Array;
  /** The 8-byte header nonce (geth's `EncodeNonce` of the genesis `nonce`). */
  readonly nonce: Uint8Array;
  readonly parentHash: Uint8Array;
  readonly gasUsed: bigint;
  readonly excessBlobGas: bigint;
  readonly blobGasUsed: bigint;
  readonly alloc: Readonly<Record<string, FixtureAccount>>;
  /** The genesis `config` (its `ubtTime` / `enableUBTAtGenesis` make the chain a UBT chain). */
  readonly config: Readonly<Record<string, unknown>>;
}

/** Reads a geth-style genesis file (post-merge forks only: the devnet has no proof of work). */
export async function readDevnetGenesis(
  path: string = DEFAULT_DEVNET_GENESIS,
): Promise<DevnetGenesis> {
  let json: unknown;
  try {
    // Bare alloc balances and nonces by their digits, as geth reads them (exact past 2^53).
    json = parseGenesisJson(await readFile(path, "utf8"));
  } catch (cause) {
    throw new TestnetError("INVALID_INPUT", `genesis ${path}: ${(cause as Error).message}`);
  }
  return parseDevnetGenesis(json, path);
}

/**
 * A genesis as geth's `Genesis` reads it (field names in any letter case, the last spelling
 * winning; the alloc by core's parseGenesisAlloc), with the header fields `ToBlock` uses.
 */
export function parseDevnetGenesis(json: unknown, what = "genesis"): DevnetGenesis {
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw new TestnetError("INVALID_INPUT", `${what}: a genesis needs "config" and "alloc"`);
  }
  const g = json as Record<string, unknown>;
  const field = (name: string): unknown => goJsonField(g, name);
  const config = field("config") as Record<string, unknown> | undefined;
  const allocJson = field("alloc");
  if (
    config === undefined ||
    config === null ||
    typeof allocJson !== "object" ||
    allocJson === null
  ) {
    throw new TestnetError("INVALID_INPUT", `${what}: a genesis needs "config" and "alloc"`);
  }
  if (config.terminalTotalDifficulty !== 0) {
    throw new TestnetError(
      "INVALID_INPUT",
      `${what}: the devnet is proof of stake from genesis (config.terminalTotalDifficulty must be 0)`,
    );
  }
  let fork = "Paris";
  for (const [name, key] of TIME_FORKS) if (config[key] === 0) fork = name;
  // geth's UBT network names: Shanghai + UBT is `Verkle`, Osaka + UBT is `Binary` (UBT as
  // `ubtNetworkOf` reads the config: ubtTime 0, or enableUBTAtGenesis without a ubtTime).
  const ubt = fork !== "Paris" && ubtNetworkOf(fork, config) !== undefined;
  if (ubt && fork === "Shanghai") fork = "Verkle";
  if (ubt && fork === "Osaka") fork = "Binary";
  if (Array.isArray(allocJson)) {
    throw new TestnetError("INVALID_INPUT", `${what}: alloc: expected an object, got an array`);
  }
  const chainId = config.chainId ?? 1;
  if (!Number.isSafeInteger(chainId) || (chainId as number) < 0) {
    throw new TestnetError(
      "INVALID_INPUT",
      `${what}: config.chainId: expected a non-negative integer, got ${JSON.stringify(chainId)}`,
    );
  }
  const gasLimit = field("gasLimit");
  if (gasLimit === undefined || gasLimit === null) {
    throw new TestnetError("INVALID_INPUT", `${what}: gasLimit: missing`);
  }
  const number = quantity(field("number"), what, "number");
  if (number !== 0n) {
    throw new TestnetError(
      "INVALID_INPUT",
      `${what}: number: the devnet starts at block 0, got ${number}`,
    );
  }
  // Required by geth's decoder, as gasLimit is (0x0 for a proof-of-stake genesis).
  const difficulty = field("difficulty");
  if (difficulty === undefined || difficulty === null) {
    throw new TestnetError("INVALID_INPUT", `${what}: difficulty: missing`);
  }
  const nonce = new Uint8Array(8);
  new DataView(nonce.buffer).setBigUint64(0, quantity(field("nonce"), what, "nonce"));
  return {
    chainId: chainId as number,
    fork,
    timestamp: quantity(field("timestamp"), what, "timestamp"),
    gasLimit: quantity(gasLimit, what, "gasLimit"),
    baseFeePerGas: quantity(field("baseFeePerGas") ?? "0x3b9aca00", what, "baseFeePerGas"),
    extraData: hexToBytesLoose(
      (field("extraData") as string | undefined) ?? "0x",
      `${what} extraData`,
    ),
    difficulty: quantity(difficulty, what, "difficulty"),
    mixHash: fixedBytes(field("mixHash"), 32, what, "mixHash"),
    coinbase: fixedBytes(field("coinbase"), 20, what, "coinbase"),
    nonce,
    parentHash: fixedBytes(field("parentHash"), 32, what, "parentHash"),
    gasUsed: quantity(field("gasUsed"), what, "gasUsed"),
    excessBlobGas: quantity(field("excessBlobGas"), what, "excessBlobGas"),
    blobGasUsed: quantity(field("blobGasUsed"), what, "blobGasUsed"),
    alloc: canonicalAlloc(allocJson as GenesisAllocInput, what),
    config,
  };
}

/** A hex or decimal quantity field (a JSON integer too); absent or null is 0. */
function quantity(value: unknown, what: string, name: string): bigint {
  if (value === undefined || value === null) return 0n;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  return parseQuantity(value as string, `${what} ${name}`);
}

/** A hash or address field, left-padded as geth's fixed-size hex decoders do; absent is zeros. */
function fixedBytes(value: unknown, size: number, what: string, name: string): Uint8Array {
  if (value === undefined || value === null) return new Uint8Array(size);
  return padLeft(hexToBytesLoose(value as string, `${what} ${name}`), size, `${what} ${name}`);
}

/**
 * The alloc as core's parseGenesisAlloc reads it (geth's rules), spelled canonically: keyed
 * by the lower-case 0x address, quantities as minimal hex, storage as 32-byte hex.
 */
function canonicalAlloc(json: GenesisAllocInput, what: string): Record<string, FixtureAccount> {
  let accounts: ParsedGenesisAccount[];
  try {
    accounts = parseGenesisAlloc(json);
  } catch (error) {
    if (!(error instanceof GenesisError)) throw error;
    throw new TestnetError("INVALID_INPUT", `${what}: ${error.message}`);
  }
  const alloc: Record<string, FixtureAccount> = {};
  for (const account of accounts) {
    alloc[bytesToHex(account.address)] = {
      balance: quantityHex(account.balance),
      nonce: quantityHex(account.nonce),
      code: bytesToHex(account.code),
      storage: Object.fromEntries(
        account.storage.map(([slot, value]) => [bytesToHex(slot), bytesToHex(value)]),
      ),
    };
  }
  return alloc;
}
