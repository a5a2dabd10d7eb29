const t0 = performance.now();
const { BinaryTree, getHasher } = await import("@bintrie/core");
const t1 = performance.now();
const { workload } = await import("/work/wt-cold/bench/rows/workload.mjs");
const { key, value } = workload(10_000, 0);
const t2 = performance.now();
const hasher = getHasher("sha256");
const t3 = performance.now();
const pass = () => {
  const tree = new BinaryTree({ hasher });
  for (let i = 0; i < 10_000; i++) tree.put(key(i), value(i));
  return tree.hash();
};
pass();
const t4 = performance.now();
pass();
const t5 = performance.now();
console.log(JSON.stringify({ import: +(t1 - t0).toFixed(1), kernel: +(t3 - t2).toFixed(1), first: +(t4 - t3).toFixed(1), second: +(t5 - t4).toFixed(1) }));
