import { expect } from "vitest";

/**
 * Runs `fn` and asserts it threw an instance of `ErrorClass` with the stable `code` and a
 * message containing `fragment`.
 */
export function expectTypedError(
  fn: () => unknown,
  ErrorClass: new (...args: never[]) => Error,
  code: string,
  fragment: string,
): void {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ErrorClass);
  expect((error as Error & { code: string }).code).toBe(code);
  expect((error as Error).message).toContain(fragment);
}
