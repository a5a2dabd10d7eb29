import { bytesToHex } from "@noble/hashes/utils.js";

/** 0x-hex of bytes (a key, stem, hash or store key), for error messages only. */
export function hexOf(bytes: Uint8Array): string {
  return `0x${bytesToHex(bytes)}`;
}
