import { type Common, Hardfork } from "@ethereumjs/common";
import { TestnetError } from "../chain/testnet-error.js";

/** Ethash's difficulty constants (the Yellow Paper; geth's params). */
const MINIMUM_DIFFICULTY = 131_072n;
const BOUND_DIVISOR = 2048n;
const FRONTIER_DURATION_LIMIT = 13n;
const BOMB_PERIOD = 100_000n;

/** The ice-age delay of each fork that moved it (EIPs 649, 1234, 2384, 3554, 4345, 5133). */
const BOMB_DELAYS: readonly [Hardfork, bigint][] = [
  [Hardfork.GrayGlacier, 11_400_000n],
  [Hardfork.ArrowGlacier, 10_700_000n],
  [Hardfork.London, 9_700_000n],
  [Hardfork.MuirGlacier, 9_000_000n],
  [Hardfork.Constantinople, 5_000_000n],
  [Hardfork.Byzantium, 3_000_000n],
];

export interface DifficultyParent {
  readonly difficulty: bigint;
  readonly timestamp: bigint;
  /** Whether the parent's uncle hash is not the empty list's. */
  readonly hasUncles: boolean;
}

/**
 * The difficulty of block `number` at `timestamp` by ethash's rule for `common`'s fork, as
 * geth's `CalcDifficulty` computes it: the minimum applies before the bomb is added (the Yellow
 * Paper's order; ethereumjs' header adds the bomb first, and its London keeps Muir Glacier's
 * delay). The caller has checked that the block is after its parent in time and number.
 */
export function ethashDifficulty(
  common: Common,
  number: bigint,
  timestamp: bigint,
  parent: DifficultyParent,
): bigint {
  const elapsed = timestamp - parent.timestamp;
  const step = parent.difficulty / BOUND_DIVISOR;
  const delay = BOMB_DELAYS.find(([fork]) => common.gteHardfork(fork))?.[1];
  if (delay !== undefined) {
    // EIP-100: uncles count, and the time is taken in steps of 9 seconds.
    let factor = (parent.hasUncles ? 2n : 1n) - elapsed / 9n;
    if (factor < -99n) factor = -99n;
    const difficulty = atLeastMinimum(parent.difficulty + step * factor);
    // The bomb counts from a block number moved back by the delay.
    const fake = number - 1n >= delay - 1n ? number - delay : 0n;
    return difficulty + bomb(fake / BOMB_PERIOD);
  }
  if (common.gteHardfork(Hardfork.Homestead)) {
    let factor = 1n - elapsed / 10n;
    if (factor < -99n) factor = -99n;
    return atLeastMinimum(parent.difficulty + step * factor) + bomb(number / BOMB_PERIOD);
  }
  const adjusted =
    elapsed < FRONTIER_DURATION_LIMIT ? parent.difficulty + step : parent.difficulty - step;
  return atLeastMinimum(atLeastMinimum(adjusted) + bomb(number / BOMB_PERIOD));
}

function atLeastMinimum(difficulty: bigint): bigint {
  return difficulty < MINIMUM_DIFFICULTY ? MINIMUM_DIFFICULTY : difficulty;
}

/** Beyond this many bits the ice age's term is not computed (geth spends minutes on it). */
const MAX_BOMB_BITS = 1n << 20n;

/** The ice age's term: 2^(periods − 2) once more than one period has passed. */
function bomb(periods: bigint): bigint {
  if (periods <= 1n) return 0n;
  if (periods - 2n > MAX_BOMB_BITS) {
    throw new TestnetError(
      "INVALID_INPUT",
      `env: currentNumber: the ice age's term 2^${periods - 2n} at this block is beyond reach (give currentDifficulty)`,
      { field: "currentNumber" },
    );
  }
  return 1n << (periods - 2n);
}
