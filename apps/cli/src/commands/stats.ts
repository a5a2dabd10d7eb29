import { CodecError, decodeNode } from "@bintrie/codec";
import { bytesToHex } from "@bintrie/core";
import { printLine } from "../line-output.js";
import { openStore } from "../open-store.js";
import { Progress } from "../progress.js";
import { readRootRecord } from "../root-record.js";
import { type StoreFlags, storeTarget } from "../store-target.js";
import { storedNodes } from "../stored-nodes.js";

export interface StatsFlags extends StoreFlags {
  readonly json?: boolean;
}

type Kind = "stem" | "group" | "internal" | "undecodable";
const KINDS: readonly Kind[] = ["stem", "group", "internal", "undecodable"];

/**
 * `bintrie stats`: one pass over every stored node (no hashing): counts per node type, a depth
 * histogram per type, stem values, and key/blob bytes.
 */
export async function runStats(flags: StatsFlags): Promise<void> {
  const opened = await openStore(storeTarget(flags, { readOnly: true }), { create: false });
  const counts: Record<Kind, number> = { stem: 0, group: 0, internal: 0, undecodable: 0 };
  const depths: Record<Kind, number[]> = { stem: [], group: [], internal: [], undecodable: [] };
  let values = 0;
  let groupEntries = 0;
  let keyBytes = 0;
  let blobBytes = 0;
  let root: Uint8Array | undefined;
  let scheme: string | null = null;
  let groupDepth: number | null = null;
  try {
    const record = await readRootRecord(opened.store);
    root = record?.root;
    scheme = record?.scheme ?? null;
    groupDepth = record?.groupDepth ?? null;
    const progress = new Progress("scanning stored nodes", undefined, " nodes");
    let total = 0;
    for await (const [path, blob] of storedNodes(opened.store)) {
      // Node keys are "vA" + path key; the path key's last byte is its depth (root: none).
      const depth = path.length === 0 ? 0 : path[path.length - 1]!;
      keyBytes += path.length + 2;
      blobBytes += blob.length;
      let kind: Kind;
      try {
        const node = decodeNode(blob);
        kind = node.kind === "empty" ? "undecodable" : node.kind;
        if (node.kind === "stem") values += node.count;
        if (node.kind === "group") groupEntries += node.count;
      } catch (error) {
        if (!(error instanceof CodecError)) throw error;
        kind = "undecodable";
      }
      counts[kind]++;
      depths[kind][depth] = (depths[kind][depth] ?? 0) + 1;
      progress.update(++total);
    }
    progress.done();
  } finally {
    await opened.close();
  }
  const total = counts.stem + counts.group + counts.internal + counts.undecodable;
  const histogram = (kind: Kind): Record<string, number> => {
    const out: Record<string, number> = {};
    depths[kind].forEach((n, depth) => {
      if (n !== undefined) out[String(depth)] = n;
    });
    return out;
  };
  if (flags.json) {
    printLine(
      JSON.stringify({
        root: bytesToHex(root ?? new Uint8Array(32)),
        scheme,
        groupDepth,
        nodes: { total, ...counts },
        values,
        groupEntries,
        bytes: { keys: keyBytes, blobs: blobBytes, total: keyBytes + blobBytes },
        depths: Object.fromEntries(KINDS.map((k) => [k, histogram(k)])),
      }),
    );
    return;
  }
  printLine(`root      ${bytesToHex(root ?? new Uint8Array(32))}`);
  if (scheme !== null) printLine(`scheme    ${scheme}, group depth ${groupDepth}`);
  printLine(
    `nodes     ${total} stored: ${counts.stem} stems, ${counts.group} groups, ${counts.internal} flat internal${counts.undecodable > 0 ? `, ${counts.undecodable} undecodable` : ""}`,
  );
  printLine(`values    ${values} (in stems), ${groupEntries} group entries`);
  printLine(
    `bytes     ${keyBytes + blobBytes} (keys ${keyBytes}, blobs ${blobBytes}, ${total > 0 ? (blobBytes / total).toFixed(1) : "0"} per blob)`,
  );
  const maxDepth = Math.max(0, ...KINDS.map((k) => depths[k].length - 1));
  if (total === 0) return;
  const shown = KINDS.filter((k) => counts[k] > 0);
  printLine(`depth     ${shown.map((k) => `${k}s`.padStart(10)).join("")}`);
  for (let depth = 0; depth <= maxDepth; depth++) {
    if (shown.every((k) => depths[k][depth] === undefined)) continue;
    printLine(
      `${String(depth).padEnd(9)} ${shown.map((k) => String(depths[k][depth] ?? 0).padStart(10)).join("")}`,
    );
  }
}
