import { readFileSync } from "node:fs";
import { testdataPath } from "./run-cli.js";

export interface NodeRecord {
  readonly path: string;
  readonly hash: string;
  readonly blob: string;
}

export interface NodesetCase {
  readonly name: string;
  readonly entries: readonly { key: string; value: string }[];
  readonly root: string;
  readonly nodesets: Readonly<Record<string, readonly NodeRecord[]>>;
}

export function nodesetCases(): NodesetCase[] {
  const file = testdataPath("geth/geth-nodesets.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { cases: NodesetCase[] }).cases;
}

export function nodesetCase(name: string): NodesetCase {
  const found = nodesetCases().find((c) => c.name === name);
  if (found === undefined) throw new Error(`no nodeset case ${name}`);
  return found;
}

export function referenceVectors(): {
  tree_key_vectors: {
    account_embedding: {
      address: string;
      basic_data: Record<string, string>;
      code_hash: Record<string, string>;
      storage_slots: { slot: string; key: Record<string, string> }[];
      code_chunks: { chunk_id: number; key: Record<string, string> }[];
    }[];
  };
  chunkify_vectors: { name: string; code: string; chunks: string[] }[];
} {
  return JSON.parse(readFileSync(testdataPath("reference/eip7864-reference.json"), "utf8"));
}

/** JSON lines of entries, the build input format. */
export function entryLines(entries: readonly { key: string; value: string }[]): string {
  return entries.map((e) => `${JSON.stringify({ key: e.key, value: e.value })}\n`).join("");
}

/** `bintrie nodes` lines expected for a node set: sorted by path bytes. */
export function expectedNodeLines(records: readonly { path: string; blob: string }[]): string[] {
  return [...records]
    .sort((a, b) =>
      Buffer.compare(Buffer.from(a.path.slice(2), "hex"), Buffer.from(b.path.slice(2), "hex")),
    )
    .map((r) => JSON.stringify({ path: r.path, blob: r.blob }));
}
