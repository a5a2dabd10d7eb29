import { readFileSync } from "node:fs";

// The vendored subset of geth's node sets (testdata/geth/PROVENANCE.md).
const NODESETS_URL = new URL("../../../testdata/geth/geth-nodesets.json", import.meta.url);

export interface NodesetNode {
  path: string;
  hash: string;
  blob: string;
}

export interface NodesetCase {
  name: string;
  note: string;
  root: string;
  entries: { key: string; value: string }[];
  /** Group depth ("0" = flat 65-byte internal blobs) to the nodes of a full commit. */
  nodesets: Record<string, NodesetNode[]>;
}

export function loadNodesets(): NodesetCase[] {
  const parsed = JSON.parse(readFileSync(NODESETS_URL, "utf8")) as {
    schema: string;
    cases: NodesetCase[];
  };
  if (parsed.schema !== "bintrie-nodesets/1" || !Array.isArray(parsed.cases)) {
    throw new Error(`unexpected nodesets schema ${parsed.schema}`);
  }
  return parsed.cases;
}
