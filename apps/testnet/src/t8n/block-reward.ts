/**
 * geth's `--state.reward`: wei as an int64, decimal or `0x` hex, a leading `-` for a negative
 * one (no reward step). Kept as a bigint: a proof-of-work reward (2·10^18, 5·10^18) is past
 * 2^53. Undefined where the text is no such number.
 */
export function parseBlockReward(text: string): bigint | undefined {
  const match = /^(-?)(0[xX][0-9a-fA-F]+|\d+)$/.exec(text);
  if (match === null) return undefined;
  const value = BigInt(match[2]!) * (match[1] === "-" ? -1n : 1n);
  return value < -(2n ** 63n) || value >= 2n ** 63n ? undefined : value;
}
