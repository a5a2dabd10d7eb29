// Dev tool: CPU profile of random blocks on a committed tree (node bench/profile-block.mjs N BLOCKS OUT).
// Prints the top self-time functions; writes the .cpuprofile to OUT.

import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { committedTreeWithBlocks } from "./rows/random-blocks.mjs";

const n = Number(process.argv[2] ?? 200_000);
const blocks = Number(process.argv[3] ?? 30);
const out = process.argv[4] ?? "block.cpuprofile";
const { tree, blockKeys: mk } = await committedTreeWithBlocks(n);
const v = new Uint8Array(32);
for (let b = 0; b < 5; b++) {
  for (const k of mk()) {
    v[0]++;
    tree.put(k, v);
  }
  tree.hash();
  await tree.persist();
}
const inputs = Array.from({ length: blocks }, mk);
const s = new Session();
s.connect();
await s.post("Profiler.enable");
await s.post("Profiler.setSamplingInterval", { interval: 100 });
await s.post("Profiler.start");
const t = performance.now();
const times = [];
for (const ks of inputs) {
  const t0 = performance.now();
  for (const k of ks) {
    v[0]++;
    tree.put(k, v.slice());
  }
  tree.hash();
  await tree.persist();
  times.push(performance.now() - t0);
}
const total = performance.now() - t;
const { profile } = await s.post("Profiler.stop");
writeFileSync(out, JSON.stringify(profile));
const self = new Map();
const byId = new Map(profile.nodes.map((x) => [x.id, x]));
const cnt = new Map();
for (const id of profile.samples) cnt.set(id, (cnt.get(id) ?? 0) + 1);
let all = 0;
for (const [id, c] of cnt) {
  const nd = byId.get(id);
  const k = `${nd.callFrame.functionName || "(anon)"} ${nd.callFrame.url.split("/").slice(-1)[0]}:${nd.callFrame.lineNumber}`;
  self.set(k, (self.get(k) ?? 0) + c);
  all += c;
}
times.sort((a, b) => a - b);
console.log(
  `blocks ${blocks} total ${total.toFixed(1)} ms, median block ${times[times.length >> 1].toFixed(2)} ms`,
);
for (const [k, c] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`${((100 * c) / all).toFixed(1).padStart(5)}%  ${k}`);
