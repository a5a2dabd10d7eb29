import { readFileSync } from "node:fs";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";

/** Reads a JSON file from the shared folder next to the repository (never copied into it). */
export function readShared<T = unknown>(relative: string): T {
  const url = new URL(`../../../../../shared/${relative}`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as T;
}

export function hex(bytes: Uint8Array): string {
  return `0x${bytesToHex(bytes)}`;
}

export function bytes(hexString: string): Uint8Array {
  return hexToBytes(hexString.startsWith("0x") ? hexString.slice(2) : hexString);
}
