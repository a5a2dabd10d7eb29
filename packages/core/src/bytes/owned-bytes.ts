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
    : value.slice();
}
