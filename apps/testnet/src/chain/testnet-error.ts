export type TestnetErrorCode =
  | "UNKNOWN_NETWORK"
  | "INVALID_FIXTURE"
  | "INVALID_INPUT"
  | "FIXTURE_NOT_FOUND";

/** A fixture, network name or tool input the executor cannot use. */
export class TestnetError extends Error {
  override readonly name = "TestnetError";
  readonly code: TestnetErrorCode;

  constructor(code: TestnetErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
