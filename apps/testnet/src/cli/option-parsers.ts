import { InvalidArgumentError } from "commander";
import { parseBlockReward } from "../t8n/block-reward.js";

/**
 * Key schemes accepted by --scheme: the core's KEY_SCHEMES, listed here so `--help` and
 * `--version` load no core (a test keeps the two lists equal).
 */
export const SCHEME_CHOICES: readonly string[] = [
  "sha256-be",
  "sha256-le",
  "blake3-be",
  "blake3-le",
];

/** A decimal integer >= min and <= Number.MAX_SAFE_INTEGER. */
export function integerParser(min: number): (text: string) => number {
  return (text) => {
    if (!/^-?[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < min) {
      throw new InvalidArgumentError(`expected a decimal integer >= ${min}.`);
    }
    return Number(text);
  };
}

/** A regular expression (checked here, so a bad one is a usage error before any work). */
export function parseRegExp(text: string): string {
  try {
    new RegExp(text);
  } catch (cause) {
    throw new InvalidArgumentError(`not a regular expression (${(cause as Error).message}).`);
  }
  return text;
}

/**
 * `--state.reward`: wei, geth's int64 flag (decimal or 0x hex); a negative one skips the reward
 * step. Kept as a bigint: a proof-of-work reward (2·10^18, 5·10^18) is past 2^53.
 */
export function parseReward(text: string): bigint {
  const value = parseBlockReward(text);
  if (value === undefined) {
    throw new InvalidArgumentError(
      "expected an integer number of wei that fits geth's int64 (decimal or 0x hex; negative: no reward step).",
    );
  }
  return value;
}
