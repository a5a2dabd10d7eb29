export type BuilderErrorCode =
  | "STEM_OUT_OF_ORDER"
  | "DUPLICATE_STEM"
  | "KEY_OUT_OF_ORDER"
  | "DUPLICATE_KEY"
  | "INVALID_KEY"
  | "INVALID_STEM"
  | "INVALID_VALUE"
  | "INVALID_INPUT"
  | "INVALID_OPTION"
  | "BUILDER_FINISHED"
  | "STORE_NOT_EMPTY"
  | "INVALID_RUN";

/** A failure of the streaming builder or its input adapters, naming the input that caused it. */
export class BuilderError extends Error {
  override readonly name = "BuilderError";
  readonly code: BuilderErrorCode;

  constructor(code: BuilderErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
