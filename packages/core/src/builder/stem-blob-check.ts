import { bytesToHex } from "../bytes/hex.js";
import { BuilderError } from "./builder-error.js";

const STEM_BLOB_HEADER = 64;

/** Throws unless `blob` is a well-formed stem blob: 01 ‖ stem ‖ bitmap ‖ one value per bit. */
export function assertStemBlob(blob: Uint8Array): void {
  if (!(blob instanceof Uint8Array) || blob.length < STEM_BLOB_HEADER || blob[0] !== 1) {
    const got =
      blob instanceof Uint8Array
        ? `${blob.length} bytes starting ${bytesToHex(blob.subarray(0, 8))}`
        : typeof blob;
    throw new BuilderError(
      "INVALID_STEM",
      `expected a stem blob (01 ‖ stem ‖ bitmap ‖ values, at least 64 bytes), got ${got}`,
    );
  }
  let count = 0;
  for (let i = 32; i < STEM_BLOB_HEADER; i++) {
    let b = blob[i]!;
    while (b !== 0) {
      b &= b - 1;
      count++;
    }
  }
  if (blob.length !== STEM_BLOB_HEADER + count * 32) {
    throw new BuilderError(
      "INVALID_STEM",
      `stem blob of ${bytesToHex(blob.subarray(1, 32))} has ${count} bitmap bits and must be ${STEM_BLOB_HEADER + count * 32} bytes, got ${blob.length}`,
    );
  }
}
