import { readFileSync } from "node:fs";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";

/** Reads a vendored JSON file of the repository's testdata/ (each folder has a PROVENANCE.md). */
export function readTestdata<T = unknown>(relative: string): T {
  return JSON.parse(readFileSync(testdataUrl(relative), "utf8")) as T;
}

export function testdataUrl(relative: string): URL {
  return new URL(`../../../../testdata/${relative}`, import.meta.url);
}

export function hex(bytes: Uint8Array): string {
  return `0x${bytesToHex(bytes)}`;
}

export function bytes(hexString: string): Uint8Array {
  return hexToBytes(hexString.startsWith("0x") ? hexString.slice(2) : hexString);
}
