// Options objects are checked key by key: a misspelt option (`groupdepth`) silently taking its
// default would build a different tree. Every @bintrie/* function that takes options uses these.
import { describeValue } from "./describe-value.js";

/**
 * The first own key of `options` that is not in `known` (a typo such as `groupdepth` for
 * `groupDepth`), or undefined when every key is known.
 *
 * @example
 * ```ts
 * import { unknownOptionKey } from "@bintrie/codec";
 *
 * unknownOptionKey({ groupdepth: 5 }, ["groupDepth", "scheme"]); // "groupdepth"
 * unknownOptionKey({ groupDepth: 5 }, ["groupDepth", "scheme"]); // undefined
 * ```
 */
export function unknownOptionKey(options: object, known: readonly string[]): string | undefined {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) return key;
  }
  return undefined;
}

/** An error class of the family that takes `code` (by default INVALID_OPTION: TreeError, …). */
export type OptionErrorClass<C extends string = "INVALID_OPTION"> = new (
  code: C,
  message: string,
) => Error;

/**
 * Refuses options that are not an object (undefined is "all defaults") or that hold a key not in
 * `known`, with `new ErrorClass(code, …)` naming `where` and the key; `code` is INVALID_OPTION
 * unless the family words bad arguments otherwise (a store's INVALID_ARGUMENT).
 *
 * @example
 * ```ts
 * import { assertKnownOptions, BintrieError } from "@bintrie/codec";
 *
 * class BuildError extends BintrieError<"INVALID_OPTION"> {}
 * assertKnownOptions({ groupDepth: 5 }, ["groupDepth"], "build", BuildError); // ok
 * // { groupdepth: 5 } throws BuildError "build: unknown option 'groupdepth' in options (known: groupDepth)"
 * ```
 */
export function assertKnownOptions(
  options: unknown,
  known: readonly string[],
  where: string,
  ErrorClass: OptionErrorClass,
): void;
export function assertKnownOptions<C extends string>(
  options: unknown,
  known: readonly string[],
  where: string,
  ErrorClass: OptionErrorClass<C>,
  code: C,
): void;
export function assertKnownOptions(
  options: unknown,
  known: readonly string[],
  where: string,
  ErrorClass: OptionErrorClass<never>,
  code = "INVALID_OPTION",
): void {
  if (options === undefined) return;
  // (The overloads tie `code` to the codes ErrorClass takes.)
  const Failure = ErrorClass as unknown as OptionErrorClass<string>;
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new Failure(code, `${where}: options must be an object, got ${describeValue(options)}`);
  }
  const key = unknownOptionKey(options, known);
  if (key !== undefined) {
    throw new Failure(
      code,
      `${where}: unknown option '${key}' in options (known: ${known.join(", ")})`,
    );
  }
}
