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

/** The most `build --threads` accepts: more is a typo or a misunderstanding (exit 2). */
export const MAX_THREADS = 1024;

/** A decimal integer >= min and <= max (default Number.MAX_SAFE_INTEGER). */
export function integerParser(
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `expected a decimal integer >= ${min}.`
          : `expected a decimal integer ${min}..${max}.`,
      );
    }
    return value;
  };
}

/** Collects a repeatable option's values in the order given. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
