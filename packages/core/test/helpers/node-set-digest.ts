import { createHash } from "node:crypto";
import type { NodeSet } from "../../src/index.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

/**
 * sha256 over a node set's writes sorted by path, each as `0x<path>=0x<blob>\n`: the digest the
 * vendored geth vectors carry (testdata/geth/PROVENANCE.md) instead of every blob.
 */
export function writesDigest(set: NodeSet): string {
  const lines = set.writes
    .map((w) => `0x${hex(w.path)}=0x${hex(w.blob)}\n`)
    .sort((a, b) => (a.split("=")[0]! < b.split("=")[0]! ? -1 : 1));
  return `0x${createHash("sha256").update(lines.join("")).digest("hex")}`;
}
