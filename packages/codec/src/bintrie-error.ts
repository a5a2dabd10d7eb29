/**
 * The one error family of every `@bintrie/*` package. Each domain (codec, tree, store, proof,
 * builder, keys, hashing, transition, CLI, testnet) throws a subclass with its own `code` union;
 * `instanceof BintrieError` catches them all, and `code` is stable across releases while the
 * message (which names the input at fault) is for humans.
 *
 * @example
 * ```ts
 * import { BintrieError, decodeNode } from "@bintrie/codec";
 *
 * try {
 *   decodeNode(new Uint8Array([9]));
 * } catch (error) {
 *   if (!(error instanceof BintrieError)) throw error;
 *   console.log(error.code); // "INVALID_NODE_TYPE"
 * }
 * ```
 */
export class BintrieError<Code extends string = string> extends Error {
  override name = "BintrieError";
  /** A stable machine-readable reason: branch on it, not on the message. */
  readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
