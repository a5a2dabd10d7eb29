import { describeValue, unknownOptionKey } from "@bintrie/codec";
import type { AccountInput, StorageSlotLike } from "@bintrie/core";
import { toBytes } from "@bintrie/core/bytes";
import { packBasicData, storageSlotToBytes, toStorageSlot } from "@bintrie/core/embedding";
import { TransitionError } from "./transition-error.js";

// Checks of caller-supplied arguments at the API's edge. Each returns a copy: an async call
// works on what was passed at call time, whatever the caller does with its buffers afterwards.
// Every failure is TransitionError('INVALID_ARGUMENT') naming the argument (`what`).

/** "`what` must be `expected`, got <value>". */
export function invalidArgument(what: string, expected: string, value: unknown): TransitionError {
  return new TransitionError(
    "INVALID_ARGUMENT",
    `${what} must be ${expected}, got ${describeValue(value)}`,
  );
}

/** Bytes, or their 0x hex; a copy. */
export function bytesArgument(what: string, input: unknown): Uint8Array {
  if (input instanceof Uint8Array) return input.slice();
  if (typeof input !== "string")
    throw invalidArgument(what, "a Uint8Array or a 0x hex string", input);
  try {
    return toBytes(input, what);
  } catch (error) {
    throw new TransitionError("INVALID_ARGUMENT", (error as Error).message);
  }
}

/** Exactly `length` bytes (bytes or 0x hex); a copy. */
export function fixedBytesArgument(what: string, input: unknown, length: number): Uint8Array {
  const bytes = bytesArgument(what, input);
  if (bytes.length !== length) {
    throw new TransitionError(
      "INVALID_ARGUMENT",
      `${what} must be ${length} bytes, got ${bytes.length} bytes`,
    );
  }
  return bytes;
}

/** Exactly `length` bytes given as a Uint8Array (internal-format arguments: keys, roots). */
export function rawBytesArgument(what: string, input: unknown, length: number): Uint8Array {
  assertByteLength(what, input, length);
  return input.slice();
}

/** rawBytesArgument without the copy (synchronous uses). */
export function assertByteLength(
  what: string,
  input: unknown,
  length: number,
): asserts input is Uint8Array {
  if (!(input instanceof Uint8Array)) {
    throw invalidArgument(what, `a Uint8Array of ${length} bytes`, input);
  }
  if (input.length !== length) {
    throw new TransitionError(
      "INVALID_ARGUMENT",
      `${what} must be ${length} bytes, got ${input.length} bytes`,
    );
  }
}

/** A 20-byte address (bytes or 0x hex); a copy. */
export function addressArgument(what: string, input: unknown): Uint8Array {
  return fixedBytesArgument(what, input, 20);
}

/** A storage slot (uint256 bigint, 32 bytes or a 0x hex quantity) as 32 bytes; a copy. */
export function slotArgument(what: string, input: unknown): Uint8Array {
  let slot: bigint | Uint8Array;
  try {
    slot = toStorageSlot(input as StorageSlotLike);
  } catch {
    throw invalidArgument(what, "a uint256 bigint, 32 bytes or a 0x hex quantity", input);
  }
  if (typeof slot === "bigint") {
    if (slot < 0n || slot >= 1n << 256n)
      throw invalidArgument(what, "a uint256 bigint, 32 bytes or a 0x hex quantity", input);
    return storageSlotToBytes(slot);
  }
  return rawBytesArgument(what, slot, 32);
}

/** A non-null object (an options bag may also be undefined, checked by the caller). */
export function objectArgument<T extends object>(what: string, input: unknown): T {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw invalidArgument(what, "an object", input);
  }
  return input as T;
}

/**
 * An optional options bag: undefined, or an object holding only `known` keys (a misspelt option
 * would otherwise silently take its default).
 */
export function optionsArgument<T extends object>(
  what: string,
  input: unknown,
  known: readonly (keyof T & string)[],
): T {
  if (input === undefined) return {} as T;
  const options = objectArgument<T>(what, input);
  const key = unknownOptionKey(options, known);
  if (key !== undefined) {
    throw new TransitionError(
      "INVALID_ARGUMENT",
      `${what}: unknown option '${key}' (known: ${known.join(", ")})`,
    );
  }
  return options;
}

/** An account header, checked as BASIC_DATA packing checks it; a copy. */
export function accountArgument(what: string, input: unknown): AccountInput {
  const account = objectArgument<AccountInput>(what, input);
  const { nonce, balance, codeSize } = account;
  const codeHash = fixedBytesArgument(`${what}.codeHash`, account.codeHash, 32);
  try {
    packBasicData({ nonce, balance, codeSize });
  } catch (error) {
    throw new TransitionError("INVALID_ARGUMENT", `${what}: ${(error as Error).message}`);
  }
  return { nonce, balance, codeSize, codeHash };
}

/** A positive safe integer. */
export function positiveIntegerArgument(what: string, input: unknown): number {
  if (!Number.isSafeInteger(input) || (input as number) < 1) {
    throw invalidArgument(what, "a positive integer", input);
  }
  return input as number;
}

/** A non-negative safe integer (a counter). */
export function countArgument(what: string, input: unknown): number {
  if (!Number.isSafeInteger(input) || (input as number) < 0) {
    throw invalidArgument(what, "a non-negative safe integer", input);
  }
  return input as number;
}
