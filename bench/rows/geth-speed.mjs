// Row: go-ethereum's BinaryTrie on the shared workload (`geth-bintrie speed N`, ../shared/tools).
// Usage: node rows/geth-speed.mjs N [RUNS] (default 5 runs). Each run is a fresh geth process; every
// figure is the median over the runs, and the block's samples are kept: geth's block commit varies
// 2-4x between runs (7 ms to 26 ms was seen on one host, its garbage collector), so one run is not
// a measure. Prints {skipped: "..."} where the tool is not present (a clone outside this machine).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { median } from "./workload.mjs";

const n = Number(process.argv[2] ?? 1_000_000);
const runs = Number(process.argv[3] ?? 5);
const tool = fileURLToPath(
  new URL("../../../shared/tools/geth-bintrie/geth-bintrie", import.meta.url),
);
if (!existsSync(tool)) {
  console.log(JSON.stringify({ row: "geth_speed", n, skipped: `${tool} not found` }));
} else {
  const samples = [];
  for (let r = 0; r < runs; r++) {
    const out = execFileSync(tool, ["speed", String(n)], { encoding: "utf8" });
    const one = JSON.parse(out.trim().split("\n").at(-1));
    one.block_ms = one.update_1000_root_ms + one.update_commit_ms;
    samples.push(one);
  }
  const first = samples[0];
  const res = { row: "geth_speed", runs };
  for (const [field, v] of Object.entries(first)) {
    res[field] = typeof v === "number" ? median(samples.map((s) => s[field])) : v;
  }
  res.root = `0x${first.root}`;
  res.root_after = `0x${first.root_after}`;
  res.roots_same_every_run = samples.every(
    (s) => s.root === first.root && s.root_after === first.root_after,
  );
  res.block_ms_samples = samples.map((s) => s.block_ms);
  res.update_1000_root_ms_samples = samples.map((s) => s.update_1000_root_ms);
  res.update_commit_ms_samples = samples.map((s) => s.update_commit_ms);
  res.block_ms_min = Math.min(...res.block_ms_samples);
  console.log(JSON.stringify(res));
}
