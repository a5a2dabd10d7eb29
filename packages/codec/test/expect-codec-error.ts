import { CodecError, type CodecErrorCode } from "../src/index.js";

/** Runs `action` and returns the CodecError it throws; anything else (or nothing) fails the test. */
export function catchCodecError(action: () => unknown): CodecError {
  try {
    action();
  } catch (error) {
    if (error instanceof CodecError) {
      return error;
    }
    throw error;
  }
  throw new Error("expected a CodecError, but nothing was thrown");
}

/** The code of the CodecError thrown by `action`. */
export function codecErrorCode(action: () => unknown): CodecErrorCode {
  return catchCodecError(action).code;
}
