// The lists the shared check (@bintrie/codec's assertKnownOptions) is given.

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
