import { BintrieError } from "@bintrie/core";

export type TestnetErrorCode =
  | "UNKNOWN_NETWORK"
  | "INVALID_FIXTURE"
  | "INVALID_INPUT"
  | "FIXTURE_NOT_FOUND";

/** A fixture, network name or tool input the executor cannot use. */
export class TestnetError extends BintrieError<TestnetErrorCode> {
  override name = "TestnetError";
}
