import { BintrieError } from "@bintrie/codec";

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
export class BuilderError extends BintrieError<BuilderErrorCode> {
  override name = "BuilderError";
}
