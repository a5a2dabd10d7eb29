// Row: where the first 10k insert+root of a fresh process goes. Spawns RUNS fresh processes
// (`--child`), each timing: importing @bintrie/core, creating the SHA-256 kernel (wasm compile),
// the first 10k insert + root (cold JIT, Liftoff wasm), then a second identical pass (warm).
// Usage: node rows/cold-start.mjs [RUNS]
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

if (process.argv[2] === "--child") {
  const t0 = performance.now();
  const { BinaryTree, getHasher } = await import("@bintrie/core");
  const t1 = performance.now();
  const { workload } = await import("./workload.mjs");
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
  console.log(
    JSON.stringify({
      import_ms: t1 - t0,
      kernel_ms: t3 - t2,
      first_ms: t4 - t3,
      second_ms: t5 - t4,
    }),
  );
} else {
  const runs = Number(process.argv[2] ?? 5);
  const self = fileURLToPath(import.meta.url);
  const samples = [];
  for (let r = 0; r < runs; r++) {
    const out = execFileSync(process.execPath, [self, "--child"], { encoding: "utf8" });
    samples.push(JSON.parse(out.trim().split("\n").at(-1)));
  }
  const median = (k) => {
    const xs = samples.map((s) => s[k]).sort((a, b) => a - b);
    return xs[xs.length >> 1];
  };
  const res = { row: "cold_start", runs, n: 10_000, node: process.version };
  for (const k of ["import_ms", "kernel_ms", "first_ms", "second_ms"]) res[k] = median(k);
  // Fresh process to the first root: import + kernel + first pass.
  res.cold_total_ms = res.import_ms + res.kernel_ms + res.first_ms;
  res.first_over_warm = res.first_ms / res.second_ms;
  console.log(JSON.stringify(res));
}
