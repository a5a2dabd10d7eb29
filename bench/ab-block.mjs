// Dev A/B: blocks on two committed trees in one process, alternating (cache on vs off).
import { committedTreeWithBlocks } from "./rows/random-blocks.mjs";

const n = Number(process.argv[2] ?? 200_000);
const blocks = Number(process.argv[3] ?? 20);
// A bounded tree keeps no group blob cache (the bound is never reached here).
const A = await committedTreeWithBlocks(n);
const B = await committedTreeWithBlocks(n, { maxNodes: 2 ** 30 });
const blockKeys = A.blockKeys;
const res = {
  A: { hash: [], commit: [], batch: [], total: [] },
  B: { hash: [], commit: [], batch: [], total: [] },
};
const v = new Uint8Array(32);
for (let b = 0; b < blocks + 3; b++) {
  const ks = blockKeys();
  const roots = [];
  for (const [name, t] of [
    ["A", A],
    ["B", B],
  ]) {
    const t0 = performance.now();
    for (const k of ks) {
      v[0] = b;
      t.tree.put(k, v);
    }
    roots.push(Buffer.from(t.tree.hash()).toString("hex"));
    const t1 = performance.now();
    const set = t.tree.commit();
    const t15 = performance.now();
    await t.store.batch(t.tree.nodeSetOperations(set));
    const t2 = performance.now();
    if (b >= 3) {
      res[name].hash.push(t1 - t0);
      res[name].commit.push(t15 - t1);
      res[name].batch.push(t2 - t15);
      res[name].total.push(t2 - t0);
    }
  }
  if (roots[0] !== roots[1]) throw new Error("roots differ");
}
const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
const out = {};
for (const k of ["A", "B"])
  out[k] = Object.fromEntries(Object.entries(res[k]).map(([p, a]) => [p, +med(a).toFixed(2)]));
out.commit_ratio = +(out.A.commit / out.B.commit).toFixed(3);
out.total_ratio = +(out.A.total / out.B.total).toFixed(3);
// stores must hold the same entries
const dump = async (s) => {
  const m = [];
  for await (const [k, v] of s.entries())
    m.push(`${Buffer.from(k).toString("hex")}:${Buffer.from(v).toString("hex")}`);
  return m.join("\n");
};
out.stores_equal = (await dump(A.store)) === (await dump(B.store));
console.log(JSON.stringify(out));
