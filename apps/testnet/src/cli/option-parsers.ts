import { InvalidArgumentError } from "commander";

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

/** `--state.reward`: binary-tree forks are proof of stake, so only "no reward" is supported. */
export function parseReward(text: string): number {
  if (text !== "0" && text !== "-1") {
    throw new InvalidArgumentError("only 0 or -1 (no block reward) are supported.");
  }
  return Number(text);
}
