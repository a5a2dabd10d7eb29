/** Appends bytes into a growing array (the proof's data stream). */
export class ByteWriter {
  #bytes = new Uint8Array(1024);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  /** Reserves `n` bytes and returns their offset in `buffer` (valid until the next write). */
  reserve(n: number): number {
    const at = this.#length;
    if (at + n > this.#bytes.length) this.#grow(at + n);
    this.#length = at + n;
    return at;
  }

  /** The backing array; bytes from a `reserve` offset are written here. */
  get buffer(): Uint8Array {
    return this.#bytes;
  }

  writeByte(value: number): void {
    const at = this.reserve(1);
    this.#bytes[at] = value;
  }

  /** Copies source[offset..offset+n) (a plain loop: no subarray view per call). */
  writeFrom(source: Uint8Array, offset: number, n: number): void {
    const at = this.reserve(n);
    const bytes = this.#bytes;
    for (let i = 0; i < n; i++) bytes[at + i] = source[offset + i]!;
  }

  finish(): Uint8Array {
    return this.#bytes.subarray(0, this.#length);
  }

  #grow(needed: number): void {
    let size = this.#bytes.length * 2;
    while (size < needed) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#bytes.subarray(0, this.#length));
    this.#bytes = next;
  }
}
