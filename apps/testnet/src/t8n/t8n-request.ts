import { unknownOptionKey } from "@bintrie/codec";
import { TestnetError } from "../chain/testnet-error.js";
import { parseBlockReward } from "./block-reward.js";
import { T8N_EXIT_JSON } from "./t8n-exit-codes.js";
import { type T8nInputFiles, t8nInputFromObject } from "./t8n-io.js";

/**
 * One transition asked of the t8n server, in the request shape of execution-spec-tests' t8n
 * server client (and the EELS daemon it was made for):
 * `{"state": {"fork", "chainid", "reward", "blobSchedule"?}, "input": {"alloc", "env", "txs" |
 * "txsRlp", "blobParams"?}, "trace"?, "output-basedir"?}`.
 */
export interface T8nRequest {
  readonly input: T8nInputFiles;
  readonly fork: string;
  readonly chainId: number;
  /** geth's `--state.reward` (negative: no reward step). */
  readonly reward: bigint;
  /** `trace: true`: the directory the `trace-<n>-<hash>.jsonl` files go to. */
  readonly traceDir?: string;
}

const REQUEST_KEYS = ["state", "input", "trace", "output-basedir"];
/**
 * `blobSchedule` and `blobParams` are accepted and not read: as with `t8n`'s files (which have no
 * place for them), the fork's own blob parameters apply.
 */
const STATE_KEYS = ["fork", "chainid", "reward", "blobSchedule"];
const INPUT_KEYS = ["alloc", "env", "txs", "txsRlp", "blobParams"];

/**
 * Reads a server request's JSON text. Every fault is a TestnetError (INVALID_INPUT, geth's
 * JSON exit code 10) naming the field: `request.state.fork: expected a fork name`. A key the
 * request shape does not have is refused, not ignored.
 */
export function parseT8nRequest(text: string): T8nRequest {
  let body: unknown;
  try {
    body = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (cause) {
    throw invalid(`request: not JSON (${(cause as Error).message})`);
  }
  const request = objectAt(body, "request", '{"state", "input"}');
  onlyKeys(request, REQUEST_KEYS, "request");
  const state = objectAt(request.state, "request.state", '{"fork", "chainid", "reward"}');
  onlyKeys(state, STATE_KEYS, "request.state");
  const input = objectAt(request.input, "request.input", '{"alloc", "env", "txs"}');
  onlyKeys(input, INPUT_KEYS, "request.input");
  const fork = state.fork;
  if (typeof fork !== "string" || fork === "") {
    throw invalid("request.state.fork: expected a fork name (Shanghai, Cancun, Prague…)");
  }
  const chainId = state.chainid ?? 1;
  if (typeof chainId !== "number" || !Number.isSafeInteger(chainId) || chainId < 0) {
    throw invalid("request.state.chainid: expected an integer >= 0");
  }
  const trace = request.trace ?? false;
  if (typeof trace !== "boolean") throw invalid("request.trace: expected true or false");
  const basedir = request["output-basedir"];
  if (basedir !== undefined && (typeof basedir !== "string" || basedir === "")) {
    throw invalid("request.output-basedir: expected a directory path");
  }
  if (trace && basedir === undefined) {
    throw invalid('request.output-basedir: "trace": true needs the directory its files go to');
  }
  const parsed = t8nInputFromObject(input, "request.input");
  return {
    input: { ...parsed, alloc: exactAlloc(parsed.alloc) },
    fork,
    chainId,
    reward: rewardOf(state.reward),
    ...(trace ? { traceDir: basedir as string } : {}),
  };
}

/** `state.reward`: a JSON integer, or a decimal or 0x hex string, within geth's int64. */
function rewardOf(value: unknown): bigint {
  if (value === undefined) return 0n;
  let reward: bigint | undefined;
  if (typeof value === "number") {
    reward = Number.isSafeInteger(value) ? BigInt(value) : undefined;
  } else if (typeof value === "string") {
    reward = parseBlockReward(value);
  }
  if (reward === undefined) {
    throw invalid(
      "request.state.reward: expected an integer number of wei within geth's int64 (a JSON integer below 2^53, or a decimal or 0x hex string)",
    );
  }
  return reward;
}

/**
 * The alloc with bare JSON numbers as balance or nonce turned into their digits, as geth reads
 * them (t8n's own files keep the literal text; a parsed request has only the number): exact
 * below 2^53, refused at and past it, where JSON.parse has already lost digits. Any other
 * number goes on as its text, which the alloc's reader refuses as geth's does (`1.5`, `-1`).
 */
function exactAlloc(alloc: T8nInputFiles["alloc"]): T8nInputFiles["alloc"] {
  let copy: Record<string, unknown> | undefined;
  for (const [address, account] of Object.entries(alloc)) {
    if (account === null || typeof account !== "object") continue;
    for (const field of ["balance", "nonce"] as const) {
      const value = (account as unknown as Record<string, unknown>)[field];
      if (typeof value !== "number") continue;
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
        throw invalid(
          `request.input.alloc.${address}.${field}: a bare JSON number at or past 2^53 has lost digits in parsing; send it as a decimal or 0x hex string`,
        );
      }
      copy ??= { ...alloc };
      copy[address] = { ...(copy[address] as object), [field]: String(value) };
    }
  }
  return (copy ?? alloc) as T8nInputFiles["alloc"];
}

function objectAt(value: unknown, where: string, shape: string): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalid(`${where}: expected an object ${shape}`);
  }
  return value as Record<string, unknown>;
}

function onlyKeys(value: Record<string, unknown>, known: readonly string[], where: string): void {
  const key = unknownOptionKey(value, known);
  if (key !== undefined) {
    throw invalid(`${where}.${key}: not a field of a t8n request (${known.join(", ")})`);
  }
}

function invalid(message: string): TestnetError {
  return new TestnetError("INVALID_INPUT", message, { gethExitCode: T8N_EXIT_JSON });
}
