import { describe, expect, it } from "vitest";
import { BinaryTree } from "../src/index.js";
import { bytes, hex, readTestdata } from "./helpers/shared.js";

interface NodeSetCase {
  name: string;
  entries: { key: string; value: string }[];
  root: string;
  nodesets: Record<string, { path: string; hash: string; blob: string }[]>;
}

const { cases } = readTestdata<{ cases: NodeSetCase[] }>("geth/geth-nodesets.json");

describe("geth-nodesets: full commit node sets, byte for byte and in emission order", () => {
  let checkedNodes = 0;
  for (const c of cases) {
    for (const [g, expected] of Object.entries(c.nodesets)) {
      it(`${c.name} g=${g} (${expected.length} nodes)`, () => {
        const tree = new BinaryTree({ groupDepth: Number(g) });
        for (const e of c.entries) tree.put(bytes(e.key), bytes(e.value));
        const set = tree.commit();
        expect(hex(set.root)).toBe(c.root);
        const actual = set.writes.map((w) => ({
          path: hex(w.path),
          hash: hex(w.hash),
          blob: hex(w.blob),
        }));
        expect(actual).toEqual(expected);
        expect(set.deletes).toEqual([]);
        checkedNodes += expected.length;
        // Nothing changed: a second commit writes nothing.
        expect(tree.commit().writes).toEqual([]);
      });
    }
  }
  it("covered every node of the vector file", () => {
    const total = cases.reduce(
      (n, c) => n + Object.values(c.nodesets).reduce((m, s) => m + s.length, 0),
      0,
    );
    expect(checkedNodes).toBe(total);
  });
});
