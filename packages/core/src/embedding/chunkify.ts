import { describeValue } from "@bintrie/codec";
import { CODE_BYTES_PER_CHUNK, CODE_CHUNK_SIZE } from "./constants.js";
import { CodeChunkError } from "./errors.js";

const PUSH1 = 0x60;
const PUSH32 = 0x7f;

/**
 * Number of 32-byte chunks for `codeSize` bytes of code: ceil(codeSize / 31).
 *
 * @example
 * ```ts
 * import { chunkCount } from "@bintrie/core/embedding";
 *
 * chunkCount(62); // 2: 31 code bytes per chunk
 * ```
 */
export function chunkCount(codeSize: number): number {
  if (!Number.isSafeInteger(codeSize) || codeSize < 0) {
    throw new CodeChunkError(
      "INVALID_CODE_SIZE",
      `code size ${describeValue(codeSize)} is not a non-negative integer`,
    );
  }
  return Math.ceil(codeSize / CODE_BYTES_PER_CHUNK);
}

/**
 * Splits code into packed 32-byte chunks (geth `ChunkifyCode`, EIP-7864). Chunk byte 0 is the
 * number of leading bytes that are PUSH data of an earlier instruction, capped at 31; bytes
 * 1..31 are code, zero-padded in the last chunk. PUSH32 as the last byte of a chunk covers the
 * whole next chunk (metadata 31) and one byte of the chunk after (metadata 1). Empty code gives
 * no chunks. A PUSH truncated by the end of code just ends the scan.
 *
 * @example
 * ```ts
 * import { chunkifyCode } from "@bintrie/core/embedding";
 *
 * const chunks = chunkifyCode(Uint8Array.of(0x60, 0x01)); // PUSH1 1
 * chunks.length; // 32: one chunk, byte 0 counts leading PUSH data (0 here)
 * ```
 */
export function chunkifyCode(code: Uint8Array): Uint8Array {
  if (!(code instanceof Uint8Array)) {
    throw new CodeChunkError(
      "INVALID_CODE",
      `code must be a Uint8Array, got ${describeValue(code)}`,
    );
  }
  const chunks = new Uint8Array(chunkCount(code.length) * CODE_CHUNK_SIZE);
  // PUSH-data bytes still ahead, counting the current one: the EIP's bytes_to_exec_data[pos].
  let pushDataLeft = 0;
  let chunkStart = 0;
  for (let pos = 0, inChunk = 0; pos < code.length; pos++, inChunk++) {
    if (inChunk === CODE_BYTES_PER_CHUNK) inChunk = 0;
    if (inChunk === 0) {
      chunkStart = (pos / CODE_BYTES_PER_CHUNK) * CODE_CHUNK_SIZE;
      chunks[chunkStart] = Math.min(pushDataLeft, CODE_BYTES_PER_CHUNK);
    }
    const byte = code[pos]!;
    chunks[chunkStart + 1 + inChunk] = byte;
    if (pushDataLeft > 0) {
      pushDataLeft--;
    } else if (byte >= PUSH1 && byte <= PUSH32) {
      pushDataLeft = byte - PUSH1 + 1;
    }
  }
  return chunks;
}

/**
 * Rebuilds `codeSize` bytes of code from packed chunks (inverse of {@link chunkifyCode}).
 *
 * @example
 * ```ts
 * import { chunkifyCode, codeFromChunks } from "@bintrie/core/embedding";
 *
 * const code = Uint8Array.of(0x60, 0x01);
 * codeFromChunks(chunkifyCode(code), code.length); // Uint8Array [0x60, 0x01]
 * ```
 */
export function codeFromChunks(chunks: Uint8Array, codeSize: number): Uint8Array {
  const count = chunkCount(codeSize);
  if (!(chunks instanceof Uint8Array) || chunks.length !== count * CODE_CHUNK_SIZE) {
    throw new CodeChunkError(
      "INVALID_CHUNKS",
      `chunks: code size ${codeSize} needs ${count} chunks (${count * CODE_CHUNK_SIZE} bytes), got ${describeValue(chunks)}`,
    );
  }
  const code = new Uint8Array(codeSize);
  for (let pos = 0; pos < codeSize; pos++) {
    const chunk = Math.floor(pos / CODE_BYTES_PER_CHUNK);
    code[pos] = chunks[chunk * CODE_CHUNK_SIZE + 1 + (pos - chunk * CODE_BYTES_PER_CHUNK)]!;
  }
  return code;
}
