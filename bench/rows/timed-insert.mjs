// One process of the 1M insert goal: node rows/timed-insert.mjs CORE_DIST N. As rows/block.mjs
// times it: N puts of the shared workload into an empty tree + hash(), after a warm-up tree
// (insert, hash, persist) through the same counting hasher. The kernel's cost per message is
// measured before and after the timed work, the lower reading is the floor (one reading during
// a slow spell of a shared host would inflate the floor and flatter the ratio). Prints one JSON
// line: wall, process CPU (all threads), put and hash wall, GC pause, system CPU and minor page
// faults over the timed region, the floor, and wall and CPU over it. rows/insert.mjs (the goal's
// row) and ab-insert.mjs (A/B of two builds) run it in fresh processes.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { startGcMeter } from "./gc-meter.mjs";
import { firstTouchUsPerPage, hugePagesMB } from "./host-memory.mjs";
import { countingHasher, measureBatchNs } from "./kernel-floor.mjs";
import { cpuMs, workload } from "./workload.mjs";

const dist = process.argv[2];
const n = Number(process.argv[3] ?? 1_000_000);
const { BinaryTree, getHasher, MemoryStore } = await import(
  pathToFileURL(resolve(dist, "index.js")).href
);
const { key, value } = workload(n, 0);
const hasher = getHasher("sha256");
const counted = countingHasher(hasher);
const tree = new BinaryTree({ hasher: counted.hasher, groupDepth: 5, store: new MemoryStore() });
{
  const warm = new BinaryTree({ hasher: counted.hasher, groupDepth: 5, store: new MemoryStore() });
  for (let i = 0; i < Math.min(n, 100_000); i++) warm.put(key(i), value(i));
  warm.hash();
  await warm.persist();
  counted.counts.m32 = 0;
  counted.counts.m64 = 0;
}
const kernel = { 32: [measureBatchNs(hasher, 32)], 64: [measureBatchNs(hasher, 64)] };
const gc = startGcMeter();
const usage0 = process.resourceUsage();
const cpu0 = cpuMs();
const t0 = performance.now();
for (let i = 0; i < n; i++) tree.put(key(i), value(i));
const t1 = performance.now();
const root = tree.hash();
const t2 = performance.now();
const cpu = cpuMs() - cpu0;
const usage1 = process.resourceUsage();
const { gc_ms } = await gc.stop();
kernel[32].push(measureBatchNs(hasher, 32));
kernel[64].push(measureBatchNs(hasher, 64));
const ns32 = Math.min(...kernel[32]);
const ns64 = Math.min(...kernel[64]);
const floorMs = (counted.counts.m32 * ns32 + counted.counts.m64 * ns64) / 1e6;
// What one fresh page costs this process, measured after the timed work (an allocation before
// it would change where the insert's memory comes from): on some virtual machines a page's first
// touch is a host fault of several microseconds, and the insert touches some 120 MB fresh.
const touchUs = firstTouchUsPerPage();
const faults = usage1.minorPageFault - usage0.minorPageFault;
const faultMs = (faults * touchUs) / 1000;
console.log(
  JSON.stringify({
    wall: t2 - t0,
    cpu,
    put: t1 - t0,
    hash: t2 - t1,
    gc: gc_ms,
    sys: (usage1.systemCPUTime - usage0.systemCPUTime) / 1000,
    faults,
    floor: floorMs,
    kernel_ns_32: ns32,
    kernel_ns_64: ns64,
    wall_over_floor: (t2 - t0) / floorMs,
    first_touch_us_per_page: touchUs,
    fault_ms_estimate: faultMs,
    wall_less_faults_over_floor: (t2 - t0 - faultMs) / floorMs,
    cpu_over_floor: cpu / floorMs,
    huge_pages_MB: hugePagesMB(),
    root: Buffer.from(root).toString("hex"),
  }),
);
