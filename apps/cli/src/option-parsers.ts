import { InvalidArgumentError } from "commander";

/** Key schemes accepted by --scheme (the core's KEY_SCHEMES, listed here so --help needs no import). */
export const SCHEME_CHOICES = ["sha256-be", "sha256-le", "blake3-be", "blake3-le"] as const;

/** --group-depth: an integer 0..8. */
export function parseGroupDepth(text: string): number {
  if (!/^[0-8]$/.test(text)) {
    throw new InvalidArgumentError("the group depth must be an integer 0..8.");
  }
  return Number(text);
}

/** A decimal integer >= min and <= Number.MAX_SAFE_INTEGER. */
export function integerParser(min: number): (text: string) => number {
  return (text) => {
    if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < min) {
      throw new InvalidArgumentError(`expected a decimal integer >= ${min}.`);
    }
    return Number(text);
  };
}

/** Collects a repeatable option's values in the order given. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
