/**
 * `value` itself when it views the whole of its buffer, otherwise a copy of the viewed bytes.
 *
 * A node set's blobs are views into large shared buffers. A store that keeps the bytes it is
 * given (IndexedDB's structured clone copies a view's whole underlying ArrayBuffer) must store
 * owned copies, or each 100-byte blob would keep a megabyte buffer alive.
 *
 * @example
 * ```ts
 * import { ownedBytes } from "@bintrie/core/bytes";
 *
 * const page = new Uint8Array(1024);
 * console.log(ownedBytes(page.subarray(0, 4)).buffer.byteLength); // → 4
 * ```
 */
export function ownedBytes(value: Uint8Array): Uint8Array {
  return value.byteOffset === 0 && value.byteLength === value.buffer.byteLength
    ? value
    : copyBytes(value);
}

/**
 * A plain Uint8Array holding a copy of `bytes`, in a buffer of exactly its size. Not
 * `bytes.slice()`: on a Node Buffer (or a browser Buffer polyfill) that is a view of the same
 * memory (Node's 8 KiB pool, say), which the caller can still change and which a structured
 * clone would store whole.
 *
 * @example
 * ```ts
 * import { copyBytes } from "@bintrie/core/bytes";
 *
 * const pooled = Buffer.from([1, 2, 3]);
 * const copy = copyBytes(pooled);
 * pooled[0] = 9;
 * console.log(copy[0], copy.buffer.byteLength); // → 1 3
 * ```
 */
export function copyBytes(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}
