import { StoreError, type StoreErrorCode } from "@bintrie/core";
import { expect } from "vitest";

/** Awaits `promise`, expects a StoreError with `code`, and returns it for message checks. */
export async function expectStoreError(
  promise: Promise<unknown>,
  code: StoreErrorCode,
): Promise<StoreError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected a StoreError('${code}')`).toBeInstanceOf(StoreError);
  expect((caught as StoreError).code).toBe(code);
  return caught as StoreError;
}
