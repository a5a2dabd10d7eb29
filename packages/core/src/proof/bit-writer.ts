/** Appends bits MSB-first into a growing byte array (the proof's shape stream). */
export class BitWriter {
  #bytes = new Uint8Array(64);
  #bits = 0;

  /** Bits written so far. */
  get bitLength(): number {
    return this.#bits;
  }

  write(bit: number): void {
    const byte = this.#bits >>> 3;
    if (byte >= this.#bytes.length) this.#grow();
    if (bit !== 0) this.#bytes[byte]! |= 0x80 >>> (this.#bits & 7);
    this.#bits++;
  }

  /** Writes the low `width` bits of `value`, most significant first. */
  writeBits(value: number, width: number): void {
    for (let i = width - 1; i >= 0; i--) this.write((value >>> i) & 1);
  }

  /** The written bits, zero-padded to whole bytes. */
  finish(): Uint8Array {
    return this.#bytes.subarray(0, (this.#bits + 7) >>> 3);
  }

  #grow(): void {
    const next = new Uint8Array(this.#bytes.length * 2);
    next.set(this.#bytes);
    this.#bytes = next;
  }
}
