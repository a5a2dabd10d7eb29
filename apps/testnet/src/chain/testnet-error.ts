import { BintrieError } from "@bintrie/core";

export type TestnetErrorCode =
  | "UNKNOWN_NETWORK"
  | "INVALID_FIXTURE"
  | "FIXTURE_FIELD_MISSING"
  | "FIXTURE_FIELD_INVALID"
  | "FIXTURE_OTHER_FORMAT"
  | "INVALID_INPUT"
  | "INVALID_FILTER"
  | "NO_MATCHING_TESTS"
  | "FIXTURE_NOT_FOUND"
  | "INVALID_OUTPUT"
  | "INVALID_OPTION"
  | "SYSTEM_CALL_FAILED"
  | "GAS_RETURNED_OVER_LIMIT";

/** Where in a fixture (or tool input) the fault is; each part is set when known. */
export interface TestnetErrorContext {
  /** The fixture file or input path. */
  readonly file?: string;
  /** The test's name inside the file. */
  readonly test?: string;
  /** The JSON path of the field at fault, e.g. `blocks[2].rlp`. */
  readonly field?: string;
  /**
   * The exit code geth's tool ends with on this fault, where the command mirrors one (`t8n`:
   * geth's `evm t8n` numbering, see t8n-exit-codes.ts).
   */
  readonly gethExitCode?: number;
}

/** A fixture, network name or tool input the executor cannot use. */
export class TestnetError extends BintrieError<TestnetErrorCode> {
  override name = "TestnetError";
  readonly file?: string;
  readonly test?: string;
  readonly field?: string;
  readonly gethExitCode?: number;

  constructor(code: TestnetErrorCode, message: string, context: TestnetErrorContext = {}) {
    super(code, message);
    if (context.file !== undefined) this.file = context.file;
    if (context.test !== undefined) this.test = context.test;
    if (context.field !== undefined) this.field = context.field;
    if (context.gethExitCode !== undefined) this.gethExitCode = context.gethExitCode;
  }
}
