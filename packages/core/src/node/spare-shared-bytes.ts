/**
 * One shared buffer kept from one call to the next. A fresh SharedArrayBuffer is mapped fresh
 * pages: at 64 bytes per entry a 1M-entry parallelRoot touches 16k of them (one page fault each,
 * ~50 ms of system time here) before a worker can read its first unit. Calls take the spare (so
 * concurrent calls never share one) and give it back only once nothing reads it any more. The
 * spare is used only when it is at most twice the size asked for, so what is kept stays within
 * twice the last call's need.
 */
export class SpareSharedBytes {
  #spare: SharedArrayBuffer | undefined;

  /** `length` bytes of shared memory, not zeroed when they come from the spare. */
  take(length: number): Uint8Array {
    const spare = this.#spare;
    this.#spare = undefined;
    const size = Math.max(length, 4);
    if (spare !== undefined && spare.byteLength >= size && spare.byteLength <= 2 * size)
      return new Uint8Array(spare, 0, length);
    return new Uint8Array(new SharedArrayBuffer(size), 0, length);
  }

  /** Keeps `bytes`' buffer for the next take (the caller must not use it any more). */
  give(bytes: Uint8Array): void {
    if (bytes.buffer instanceof SharedArrayBuffer) this.#spare = bytes.buffer;
  }

  /** Bytes kept for the next call. */
  get size(): number {
    return this.#spare?.byteLength ?? 0;
  }

  clear(): void {
    this.#spare = undefined;
  }
}
