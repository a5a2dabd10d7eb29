// Options objects are checked key by key: a misspelt option (`groupdepth`) silently taking its
// default would build a different tree. Every @bintrie/* function that takes options uses it.

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
