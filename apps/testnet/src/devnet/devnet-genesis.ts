import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { TestnetError } from "../chain/testnet-error.js";
import type { FixtureAccount } from "../fixtures/blockchain-test.js";
import { hexToBytesLoose, parseQuantity } from "../fixtures/hex.js";
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
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (cause) {
    throw new TestnetError("INVALID_INPUT", `genesis ${path}: ${(cause as Error).message}`);
  }
  return parseDevnetGenesis(json, path);
}

export function parseDevnetGenesis(json: unknown, what = "genesis"): DevnetGenesis {
  const g = json as Record<string, unknown>;
  const config = g?.config as Record<string, unknown> | undefined;
  if (config === undefined || typeof g.alloc !== "object" || g.alloc === null) {
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
  if (Array.isArray(g.alloc)) {
    throw new TestnetError("INVALID_INPUT", `${what}: alloc: expected an object, got an array`);
  }
  const chainId = config.chainId ?? 1;
  if (!Number.isSafeInteger(chainId) || (chainId as number) < 0) {
    throw new TestnetError(
      "INVALID_INPUT",
      `${what}: config.chainId: expected a non-negative integer, got ${JSON.stringify(chainId)}`,
    );
  }
  if (g.gasLimit === undefined || g.gasLimit === null) {
    throw new TestnetError("INVALID_INPUT", `${what}: gasLimit: missing`);
  }
  const alloc: Record<string, FixtureAccount> = {};
  for (const [address, account] of Object.entries(
    g.alloc as Record<string, Record<string, unknown>>,
  )) {
    if (account === null || typeof account !== "object" || Array.isArray(account)) {
      throw new TestnetError(
        "INVALID_INPUT",
        `${what}: alloc ${address}: expected an account object, got ${account === null ? "null" : typeof account}`,
      );
    }
    alloc[address.startsWith("0x") ? address.toLowerCase() : `0x${address.toLowerCase()}`] = {
      balance: String(account.balance ?? "0x0"),
      nonce: String(account.nonce ?? "0x0"),
      code: String(account.code ?? "0x"),
      storage: (account.storage ?? {}) as Record<string, string>,
    };
  }
  return {
    chainId: chainId as number,
    fork,
    timestamp: parseQuantity(g.timestamp as string | undefined, `${what} timestamp`),
    gasLimit: parseQuantity(g.gasLimit as string | undefined, `${what} gasLimit`),
    baseFeePerGas: parseQuantity(
      (g.baseFeePerGas as string | undefined) ?? "0x3b9aca00",
      `${what} baseFeePerGas`,
    ),
    extraData: hexToBytesLoose((g.extraData as string | undefined) ?? "0x", `${what} extraData`),
    alloc,
    config,
  };
}
