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
  | "INVALID_RUN"
  | "WORKER_FAILED";

/**
 * A failure of the streaming builder or its input adapters, naming the input that caused it.
 *
 * @example
 * ```ts
 * import { BuilderError, StreamingBuilder } from "@bintrie/core/builder";
 *
 * const builder = new StreamingBuilder({ onNode: () => {} });
 * builder.addEntry(new Uint8Array(32).fill(2), new Uint8Array(32));
 * try {
 *   builder.addEntry(new Uint8Array(32).fill(1), new Uint8Array(32)); // out of order
 * } catch (error) {
 *   console.log(error instanceof BuilderError && error.code); // "KEY_OUT_OF_ORDER"
 * }
 * ```
 */
export class BuilderError extends BintrieError<BuilderErrorCode> {
  override name = "BuilderError";
}
