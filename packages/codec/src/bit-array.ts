import {
  assertBit,
  assertBytes,
  assertIntegerInRange,
  invalidArgument,
} from "./argument-checks.js";
import { MAX_DEPTH } from "./constants.js";
import { CodecError } from "./errors.js";
import { decodePathKey, encodePathKey, writePathKey } from "./path-key.js";

/** A BitArray value: a non-negative safe integer or a non-negative bigint, nothing else. */
function assertBitArrayValue(value: unknown): asserts value is number | bigint {
  if (
    typeof value === "number"
      ? !(Number.isSafeInteger(value) && value >= 0)
      : !(typeof value === "bigint" && value >= 0n)
  ) {
    throw invalidArgument(
      "bit array value",
      "a non-negative integer (a safe integer number or a bigint)",
      value,
    );
  }
}

/**
 * A tree path, mirroring geth's `BitArray`: `length` bits, MSB-first, left-aligned in 32 bytes with
 * every bit past `length` kept zero, so two paths are equal exactly when their bytes are. Unlike
 * geth (uint8 length) the length is capped at 248, the depth of a full stem.
 *
 * `setBytes` and `setBit` overwrite this array and return it; `msbs` and `appendBit` return a new one.
 *
 * @example
 * ```ts
 * import { BitArray } from "@bintrie/codec";
 *
 * const path = BitArray.fromUint(3, 5); // the bits 101
 * path.bit(0); // 1
 * path.keyBytes(); // Uint8Array [0xa0, 3]: the path key
 * ```
 */
export class BitArray {
  #length = 0;
  readonly #bytes = new Uint8Array(32);

  /**
   * geth `NewBitArray(length, value)`: the low `length` bits of `value`, most significant first.
   * `value` is a non-negative safe integer or a non-negative bigint; nothing else (no strings).
   */
  constructor(length = 0, value: number | bigint = 0) {
    assertIntegerInRange("bit array length", length, 0, MAX_DEPTH);
    assertBitArrayValue(value);
    const bits = BigInt(value);
    for (let p = 0; p < length; p++) {
      if (((bits >> BigInt(length - 1 - p)) & 1n) === 1n) {
        this.#bytes[p >> 3] = this.#bytes[p >> 3]! | (0x80 >> (p & 7));
      }
    }
    this.#length = length;
  }

  /** geth `NewBitArray`: same as the constructor. */
  static fromUint(length: number, value: number | bigint): BitArray {
    // Both are required here: undefined must not fall back to the constructor's defaults.
    assertIntegerInRange("bit array length", length, 0, MAX_DEPTH);
    assertBitArrayValue(value);
    return new BitArray(length, value);
  }

  /** The first `length` bits of `data` (geth `SetBytes` on a fresh array). */
  static fromBytes(length: number, data: Uint8Array): BitArray {
    assertBytes("BitArray.fromBytes: data", data);
    return new BitArray().setBytes(length, data);
  }

  /** The path a canonical path key stands for (see {@link decodePathKey}). */
  static fromPathKey(key: Uint8Array): BitArray {
    assertBytes("BitArray.fromPathKey: key", key);
    const { bits, length } = decodePathKey(key);
    return new BitArray().setBytes(length, bits);
  }

  /** Number of bits, 0..248. */
  get length(): number {
    return this.#length;
  }

  /** The 32 left-aligned bytes (geth `Bytes()`). This is the live buffer: do not modify it. */
  get bytes(): Uint8Array {
    return this.#bytes;
  }

  /** Bit `index` (0 = first/most significant); 0 past the end, as in geth `Bit`. */
  bit(index: number): 0 | 1 {
    assertIntegerInRange("bit index", index, 0, 255);
    if (index >= this.#length) {
      return 0;
    }
    return ((this.#bytes[index >> 3]! >> (7 - (index & 7))) & 1) as 0 | 1;
  }

  /** geth `SetBytes`: become the first `length` bits of `data` (bytes missing from `data` read as zero). */
  setBytes(length: number, data: Uint8Array): this {
    assertIntegerInRange("bit array length", length, 0, MAX_DEPTH);
    assertBytes("BitArray.setBytes: data", data);
    this.#bytes.fill(0);
    const copied = Math.min(data.length, 32);
    for (let i = 0; i < copied; i++) {
      this.#bytes[i] = data[i]!;
    }
    this.#length = length;
    this.#maskTail();
    return this;
  }

  /** geth `SetBit`: become the 1-bit path `bit`. */
  setBit(bit: 0 | 1): this {
    assertBit("bit", bit);
    this.#bytes.fill(0);
    this.#bytes[0] = bit === 1 ? 0x80 : 0;
    this.#length = 1;
    return this;
  }

  /** geth `MSBs`: a new array holding the first `n` bits (a copy when n >= length). */
  msbs(n: number): BitArray {
    assertIntegerInRange("bit count", n, 0, 255);
    const result = this.copy();
    if (n < result.#length) {
      result.#length = n;
      result.#maskTail();
    }
    return result;
  }

  /** geth `AppendBit`: a new array with `bit` added at the end. */
  appendBit(bit: 0 | 1): BitArray {
    assertBit("bit", bit);
    if (this.#length >= MAX_DEPTH) {
      throw new CodecError(
        "PATH_TOO_DEEP",
        `cannot append a bit to a ${this.#length}-bit path (maximum ${MAX_DEPTH} bits)`,
      );
    }
    const result = this.copy();
    const position = result.#length;
    if (bit === 1) {
      result.#bytes[position >> 3] = result.#bytes[position >> 3]! | (0x80 >> (position & 7));
    }
    result.#length = position + 1;
    return result;
  }

  /** geth `Equal`: same length and same bits. */
  equals(other: BitArray): boolean {
    // A brand check, not instanceof: an object made from BitArray.prototype has no private fields.
    if (typeof other !== "object" || other === null || !(#length in other)) {
      throw invalidArgument("BitArray.equals: other", "a BitArray", other);
    }
    if (this.#length !== other.#length) {
      return false;
    }
    for (let i = 0; i < 32; i++) {
      if (this.#bytes[i] !== other.#bytes[i]) {
        return false;
      }
    }
    return true;
  }

  copy(): BitArray {
    const result = new BitArray();
    result.#bytes.set(this.#bytes);
    result.#length = this.#length;
    return result;
  }

  /** geth `KeyBytes`: the path key (see {@link encodePathKey}). */
  keyBytes(): Uint8Array {
    return encodePathKey(this.#bytes, this.#length);
  }

  /** geth `PutKeyBytes`: writes the path key into `out` and returns the number of bytes written. */
  putKeyBytes(out: Uint8Array, outOffset = 0): number {
    assertBytes("BitArray.putKeyBytes: out", out);
    return writePathKey(this.#bytes, this.#length, out, outOffset);
  }

  /** geth `String`: "(length) hex of the 32 bytes". */
  toString(): string {
    let hex = "";
    for (const byte of this.#bytes) {
      hex += byte.toString(16).padStart(2, "0");
    }
    return `(${this.#length}) ${hex}`;
  }

  // Zeroes every bit at a position >= length, keeping equal paths byte-equal.
  #maskTail(): void {
    let fullBytes = this.#length >> 3;
    const usedInLastByte = this.#length & 7;
    if (usedInLastByte !== 0) {
      this.#bytes[fullBytes] = this.#bytes[fullBytes]! & (0xff00 >> usedInLastByte);
      fullBytes++;
    }
    this.#bytes.fill(0, fullBytes);
  }
}
