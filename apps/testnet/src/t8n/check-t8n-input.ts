import { type GenesisAllocInput, GenesisError, parseGenesisAlloc } from "@bintrie/core";
import { type Common, Hardfork } from "@ethereumjs/common";
import { TestnetError } from "../chain/testnet-error.js";
import { checkT8nTx } from "./check-t8n-tx.js";
import { T8N_EXIT_CONFIG } from "./t8n-exit-codes.js";
import { describe, fail, isAbsent, isHex } from "./t8n-input-fault.js";

/** Where each input came from, for messages: a file path or `stdin`. */
export interface T8nSources {
  readonly alloc: string;
  readonly env: string;
  readonly txs: string;
}

const U64 = 64;
const U256 = 256;
const ENV_U64 = [
  "parentTimestamp",
  "parentGasUsed",
  "parentGasLimit",
  "currentExcessBlobGas",
  "parentExcessBlobGas",
  "parentBlobGasUsed",
];
const ENV_U256 = ["currentDifficulty", "currentBaseFee", "parentBaseFee", "parentDifficulty"];

/**
 * Refuses the t8n inputs geth's `evm t8n` refuses (its JSON decoding of alloc, env and txs, and
 * the config checks before the transition), instead of reading them leniently: a missing
 * balance, odd-length hex, a 39-digit address, a number over 64 bits, a missing required env
 * field, an unknown transaction type… Each fault is a TestnetError naming the source and the
 * field. (A Prague block without the request contracts is refused later, after the
 * transactions, as geth refuses it: see `transition`.)
 */
export function checkT8nInput(
  input: { readonly alloc: unknown; readonly env: unknown; readonly txs: unknown },
  sources: T8nSources,
  common: Common,
): void {
  // geth's order: decode alloc, env and txs; check the config; then run the block.
  checkAlloc(input.alloc, sources.alloc);
  const env = input.env as Record<string, unknown>;
  checkEnv(env, sources.env);
  if (Array.isArray(input.txs)) {
    for (const [index, tx] of input.txs.entries()) checkT8nTx(tx, index, sources.txs, common);
  }
  if (common.isActivatedEIP(1559) && isAbsent(env.currentBaseFee)) {
    // geth derives it only from a parent: block 0 has none.
    if (
      isAbsent(env.parentBaseFee) ||
      quantity(env.currentNumber, U64, sources.env, "currentNumber") === 0n
    ) {
      fail(
        sources.env,
        "currentBaseFee",
        isAbsent(env.parentBaseFee)
          ? "missing, and no parentBaseFee to derive it (EIP-1559 fork)"
          : "missing, and block 0 has no parent to derive it from (EIP-1559 fork)",
        T8N_EXIT_CONFIG,
      );
    }
  }
  checkForkEnv(env, sources.env, common);
}

/**
 * geth's env checks after the base fee's, in its order (t8ntool/transition.go:
 * applyShanghaiChecks, applyMergeChecks, applyCancunChecks; ErrorConfig there).
 */
function checkForkEnv(env: Record<string, unknown>, source: string, common: Common): void {
  if (common.isActivatedEIP(4895) && isAbsent(env.withdrawals)) {
    failConfig(
      source,
      "withdrawals",
      "missing (Shanghai and later forks need the list, [] for none)",
    );
  }
  if (!common.gteHardfork(Hardfork.Paris) && isAbsent(env.currentDifficulty)) {
    // geth derives it from the parent's (applyMergeChecks), or refuses.
    if (isAbsent(env.parentDifficulty)) {
      failConfig(source, "currentDifficulty", "missing, and no parentDifficulty to derive it");
    }
    const number = quantity(env.currentNumber, U64, source, "currentNumber");
    if (number === 0n) failConfig(source, "currentDifficulty", "missing, needed for block 0");
    const time = quantity(env.currentTimestamp, U64, source, "currentTimestamp");
    const parentTime = optional(env.parentTimestamp, U64, source, "parentTimestamp") ?? 0n;
    if (time <= parentTime) {
      failConfig(
        source,
        "currentDifficulty",
        `missing, and cannot be derived: currentTimestamp ${time} is not after parentTimestamp ${parentTime}`,
      );
    }
  }
  if (common.gteHardfork(Hardfork.Paris)) {
    if (isAbsent(env.currentRandom))
      failConfig(source, "currentRandom", "missing (after the merge)");
    const difficulty = optional(env.currentDifficulty, U256, source, "currentDifficulty");
    if (difficulty !== undefined && difficulty !== 0n) {
      failConfig(source, "currentDifficulty", "must be zero or omitted after the merge");
    }
  }
  if (common.isActivatedEIP(4788) && isAbsent(env.parentBeaconBlockRoot)) {
    failConfig(source, "parentBeaconBlockRoot", "missing (Cancun and later forks need it)");
  }
}

/** A fault of the env against the fork: geth's ErrorConfig. */
function failConfig(source: string, field: string, problem: string): never {
  fail(source, field, problem, T8N_EXIT_CONFIG);
}

/** The alloc as geth decodes a GenesisAlloc: core's parseGenesisAlloc (geth's rules). */
function checkAlloc(alloc: unknown, source: string): void {
  if (isAbsent(alloc)) return;
  try {
    parseGenesisAlloc(alloc as GenesisAllocInput);
  } catch (error) {
    if (!(error instanceof GenesisError)) throw error;
    throw new TestnetError("INVALID_INPUT", `${source}: ${error.message}`, { file: source });
  }
}

function checkEnv(env: Record<string, unknown>, source: string): void {
  if (env.currentCoinbase === undefined) fail(source, "currentCoinbase", "missing");
  if (
    typeof env.currentCoinbase !== "string" ||
    !/^(0x)?[0-9a-fA-F]{40}$/.test(env.currentCoinbase)
  ) {
    fail(
      source,
      "currentCoinbase",
      `${describe(env.currentCoinbase)} is not a 20-byte hex address`,
    );
  }
  for (const field of ["currentGasLimit", "currentNumber", "currentTimestamp"]) {
    if (isAbsent(env[field])) fail(source, field, "missing");
    quantity(env[field], U64, source, field);
  }
  for (const field of ENV_U64) optional(env[field], U64, source, field);
  for (const field of ENV_U256) optional(env[field], U256, source, field);
  checkOmmers(env.ommers, source);
  checkHashes(env, source);
  const withdrawals = env.withdrawals;
  if (isAbsent(withdrawals)) return;
  if (!Array.isArray(withdrawals)) {
    fail(source, "withdrawals", `expected an array, got ${describe(withdrawals)}`);
  }
  withdrawals.forEach((w: unknown, i: number) => {
    const at = `withdrawals[${i}]`;
    if (w === null || typeof w !== "object" || Array.isArray(w)) {
      fail(source, at, `expected an object, got ${describe(w)}`);
    }
    const fields = w as Record<string, unknown>;
    for (const field of ["index", "validatorIndex", "amount"]) {
      optional(fields[field], U64, source, `${at}.${field}`);
    }
    if (fields.address !== undefined && !isHex(fields.address, 20)) {
      fail(source, `${at}.address`, `${describe(fields.address)} is not a 20-byte hex address`);
    }
  });
}

/**
 * The env's 32-byte hashes as geth's `common.Hash` decodes them: `0x` and exactly 64 digits
 * (`blockHashes` values, keyed by block numbers; `parentBeaconBlockRoot`).
 */
function checkHashes(env: Record<string, unknown>, source: string): void {
  const isHash = (value: unknown) =>
    typeof value === "string" && /^0[xX][0-9a-fA-F]{64}$/.test(value);
  const blockHashes = env.blockHashes;
  if (!isAbsent(blockHashes)) {
    if (typeof blockHashes !== "object" || Array.isArray(blockHashes)) {
      fail(source, "blockHashes", `expected an object, got ${describe(blockHashes)}`);
    }
    for (const [key, hash] of Object.entries(blockHashes as Record<string, unknown>)) {
      // geth reads an empty key as block 0.
      if (key !== "") quantity(key, U64, source, `blockHashes key ${JSON.stringify(key)}`);
      if (!isHash(hash)) {
        fail(source, `blockHashes[${key}]`, `${describe(hash)} is not a 32-byte 0x-hex hash`);
      }
    }
  }
  const root = env.parentBeaconBlockRoot;
  if (!isAbsent(root) && !isHash(root)) {
    fail(source, "parentBeaconBlockRoot", `${describe(root)} is not a 32-byte 0x-hex hash`);
  }
}

/** geth's ommer list: `{ delta: <JSON number>, address: <20-byte hex> }` each. */
function checkOmmers(ommers: unknown, source: string): void {
  if (isAbsent(ommers)) return;
  if (!Array.isArray(ommers)) fail(source, "ommers", `expected an array, got ${describe(ommers)}`);
  ommers.forEach((o: unknown, i: number) => {
    const at = `ommers[${i}]`;
    if (o === null || typeof o !== "object" || Array.isArray(o)) {
      fail(source, at, `expected an object, got ${describe(o)}`);
    }
    const { delta, address } = o as Record<string, unknown>;
    if (typeof delta !== "number" || !Number.isSafeInteger(delta) || delta < 0) {
      fail(source, `${at}.delta`, `${describe(delta)} is not a non-negative integer`);
    }
    if (!isHex(address, 20)) {
      fail(source, `${at}.address`, `${describe(address)} is not a 20-byte hex address`);
    }
  });
}

/** A hex or decimal quantity below 2^bits (geth's math.HexOrDecimal64 / 256). */
function quantity(value: unknown, bits: number, source: string, field: string): bigint {
  if (typeof value !== "string" || !/^(0[xX][0-9a-fA-F]+|[0-9]+)$/.test(value)) {
    fail(source, field, `${describe(value)} is not a hex or decimal quantity`);
  }
  const n = BigInt(value);
  if (n >= 1n << BigInt(bits)) fail(source, field, `${describe(value)} exceeds ${bits} bits`);
  return n;
}

function optional(value: unknown, bits: number, source: string, field: string): bigint | undefined {
  return isAbsent(value) ? undefined : quantity(value, bits, source, field);
}
