// What an error message says a caller passed; @bintrie/core describes bad input with it too.

const SHOWN_CHARS = 32;

/**
 * A short description of any value for an error message (`null`, `"ab"`, `5n`, `3 bytes`, `an
 * array of 2 elements`, `an object`): O(1), and never throws, whatever it is given (a bigint, a
 * symbol, a circular object or a hostile proxy).
 *
 * @example
 * ```ts
 * import { describeValue } from "@bintrie/codec";
 *
 * describeValue(5n); // "5n"
 * describeValue(new Uint8Array(3)); // "3 bytes"
 * describeValue(new Uint16Array(3)); // "a Uint16Array of 3 elements"
 * ```
 */
export function describeValue(value: unknown): string {
  if (value === null) {
    return "null";
  }
  switch (typeof value) {
    case "string":
      return JSON.stringify(
        value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS - 3)}...` : value,
      );
    case "number":
    case "boolean":
    case "undefined":
      return String(value);
    case "bigint":
      return `${value}n`;
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
  }
  try {
    if (Array.isArray(value)) {
      return `an array of ${value.length} elements`;
    }
    // Bytes (a Buffer too) by their length: "got 31 bytes" where 32 were expected.
    if (value instanceof Uint8Array) {
      return `${value.length} bytes`;
    }
    if (ArrayBuffer.isView(value)) {
      const tag = Object.prototype.toString.call(value).slice(8, -1);
      const length = (value as { length?: unknown }).length;
      return typeof length === "number"
        ? `${withArticle(tag)} of ${length} elements`
        : withArticle(tag);
    }
    const name: unknown = Object.getPrototypeOf(value)?.constructor?.name;
    return typeof name === "string" && name !== "" && name !== "Object"
      ? withArticle(name)
      : "an object";
  } catch {
    // A hostile proxy or getter: still describe it rather than let its error escape.
    return "an object";
  }
}

function withArticle(name: string): string {
  return `${/^[AEIO]/.test(name) ? "an" : "a"} ${name}`;
}
