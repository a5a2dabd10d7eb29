// Dev tool: CPU profile of random blocks on a committed tree (node bench/profile-block.mjs N BLOCKS OUT).
// Prints the top self-time functions of the whole block, of its write + hash steps (put and
// hash(), without persist()) and of the rest (persist()); writes the .cpuprofile to OUT.

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
const hashTimes = [];
// Monotonic microseconds, the profiler's clock: the write + hash windows of each block.
const micros = () => Number(process.hrtime.bigint() / 1000n);
const windows = [];
for (const ks of inputs) {
  const t0 = performance.now();
  const w0 = micros();
  for (const k of ks) {
    v[0]++;
    tree.put(k, v.slice());
  }
  tree.hash();
  windows.push([w0, micros()]);
  hashTimes.push(performance.now() - t0);
  await tree.persist();
  times.push(performance.now() - t0);
}
const total = performance.now() - t;
const { profile } = await s.post("Profiler.stop");
writeFileSync(out, JSON.stringify(profile));
const byId = new Map(profile.nodes.map((x) => [x.id, x]));
const sampleTimes = [];
for (let i = 0, at = profile.startTime; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i];
  sampleTimes.push(at);
}
const inWindow = (time) => windows.some(([a, b]) => time >= a && time <= b);
const table = (title, keep) => {
  const self = new Map();
  let all = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    if (!keep(sampleTimes[i])) continue;
    const nd = byId.get(profile.samples[i]);
    const k = `${nd.callFrame.functionName || "(anon)"} ${nd.callFrame.url.split("/").slice(-1)[0]}:${nd.callFrame.lineNumber}`;
    self.set(k, (self.get(k) ?? 0) + 1);
    all++;
  }
  console.log(title);
  for (const [k, c] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`${((100 * c) / all).toFixed(1).padStart(5)}%  ${k}`);
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `blocks ${blocks} total ${total.toFixed(1)} ms, median block ${median(times).toFixed(2)} ms, median write + hash ${median(hashTimes).toFixed(2)} ms`,
);
table("whole block:", () => true);
table("write + hash steps only:", inWindow);
table("persist only (outside those steps):", (time) => !inWindow(time));
