import { describeValue, unknownOptionKey } from "@bintrie/codec";

/** An error class of the family that takes the code INVALID_OPTION (TreeError, BuilderError, …). */
export type OptionErrorClass = new (code: "INVALID_OPTION", message: string) => Error;

/**
 * The option names of `T`, listed once: the compiler refuses a list that misses a key of `T` or
 * names one it does not have, so the list cannot fall behind the interface.
 */
export function optionKeys<T extends object>() {
  return <const K extends readonly (keyof T & string)[]>(
    keys: K &
      ([Exclude<keyof T & string, K[number]>] extends [never]
        ? unknown
        : { missingOptionKeys: Exclude<keyof T & string, K[number]> }),
  ): readonly string[] => keys;
}

/**
 * Refuses options that are not an object (undefined is "all defaults") or that hold a key not in
 * `known`: a misspelt option (`groupdepth`) would otherwise silently take its default. Throws
 * `new ErrorClass('INVALID_OPTION', …)` naming `where` and the key.
 */
export function assertKnownOptions(
  options: unknown,
  known: readonly string[],
  where: string,
  ErrorClass: OptionErrorClass,
): void {
  if (options === undefined) return;
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new ErrorClass(
      "INVALID_OPTION",
      `${where}: options must be an object, got ${describeValue(options)}`,
    );
  }
  const key = unknownOptionKey(options, known);
  if (key !== undefined) {
    throw new ErrorClass(
      "INVALID_OPTION",
      `${where}: unknown option '${key}' in options (known: ${known.join(", ")})`,
    );
  }
}
