import { bytesToBigInt } from "@ethereumjs/util";

/** geth's words for a MODEXP length over EIP-7823's cap. */
const LENGTH_ERROR = "one or more of base/exponent/modulus length exceeded 1024 bytes";
/** EIP-7823: each of the three lengths at most this many bytes. */
const MAX_LENGTH = 1024n;

/**
 * The error geth gives MODEXP (0x05) under EIP-7823 where the library says "out of gas": the
 * library refuses an input length over 1,024 bytes with the same out-of-gas result as gas it
 * cannot pay, geth only once its EIP-7883 price is paid (RequiredGas before Run). Undefined
 * where geth's error is also "out of gas" (lengths within the cap, or `gas` below the price).
 */
export function gethModexpLengthError(input: Uint8Array, gas: bigint): string | undefined {
  const baseLength = word(input, 0);
  const exponentLength = word(input, 32);
  const modulusLength = word(input, 64);
  if (baseLength <= MAX_LENGTH && exponentLength <= MAX_LENGTH && modulusLength <= MAX_LENGTH) {
    return undefined;
  }
  const price = osakaModexpGas(input, baseLength, exponentLength, modulusLength);
  return gas >= price ? LENGTH_ERROR : undefined;
}

/**
 * EIP-7883's price (geth's osakaModexpGas), in unbounded integers: where geth saturates at
 * 2^64 - 1 the price here is larger still, and no gas limit reaches either.
 */
function osakaModexpGas(
  input: Uint8Array,
  baseLength: bigint,
  exponentLength: bigint,
  modulusLength: bigint,
): bigint {
  const longest = baseLength > modulusLength ? baseLength : modulusLength;
  const words = (longest + 7n) / 8n;
  const complexity = longest <= 32n ? 16n : 2n * words * words;
  // The exponent's first 32 bytes (its whole if shorter), read only when the input holds a
  // byte past the base; zero-padded on the right, as geth reads past the input's end.
  let head = 0n;
  const body = BigInt(Math.max(0, input.length - 96));
  if (body > baseLength) {
    const size = exponentLength > 32n ? 32 : Number(exponentLength);
    const start = 96 + Number(baseLength);
    const bytes = new Uint8Array(size);
    bytes.set(input.subarray(start, start + size));
    head = bytesToBigInt(bytes);
  }
  let iterations = exponentLength > 32n ? (exponentLength - 32n) * 16n : 0n;
  if (head > 0n) iterations += BigInt(head.toString(2).length - 1);
  if (iterations < 1n) iterations = 1n;
  const price = complexity * iterations;
  return price < 500n ? 500n : price;
}

/** The 32-byte word at `at` of the input, zero-padded past its end. */
function word(input: Uint8Array, at: number): bigint {
  const bytes = new Uint8Array(32);
  bytes.set(input.subarray(at, at + 32));
  return bytesToBigInt(bytes);
}
