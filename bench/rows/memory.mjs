// Row: what this host's memory costs, the context of every ratio over the hash floor (hosts
// differ here far more than in SHA-256 speed): the first write to a fresh 4 KiB page, and a
// random read from an arena-sized (176 MiB) typed array, dependent (each address read from the
// last: a descent) and independent (addresses known ahead: a batch). Usage: node rows/memory.mjs
import { firstTouchUsPerPage, hugePagesMB } from "./host-memory.mjs";
import { median, xorshift32 } from "./workload.mjs";

const WORDS = 44 * 1024 * 1024; // 176 MiB of u32, about the 1M-key tree's arena
const LINE_WORDS = 16;
const READS = 20_000;
const ROUNDS = 15;

const res = { row: "memory", node: process.version, array_MiB: (WORDS * 4) / 2 ** 20 };

res.first_touch_us_per_page = firstTouchUsPerPage();

// A random cycle through every cache line of the array (a fixed-seed shuffle).
const words = new Uint32Array(WORDS);
const lines = WORDS / LINE_WORDS;
const order = new Uint32Array(lines);
for (let i = 0; i < lines; i++) order[i] = i;
const random = xorshift32(0x2545f491);
for (let i = lines - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  const t = order[i];
  order[i] = order[j];
  order[j] = t;
}
for (let i = 0; i < lines; i++) words[order[i] * LINE_WORDS] = order[(i + 1) % lines] * LINE_WORDS;
const addresses = new Uint32Array(READS);
const newAddresses = () => {
  for (let i = 0; i < READS; i++) addresses[i] = Math.floor(random() * lines) * LINE_WORDS;
};
const chase = (from) => {
  let at = from;
  for (let i = 0; i < READS; i++) at = words[at];
  return at;
};
const gather = () => {
  let x = 0;
  for (let i = 0; i < READS; i++) x ^= words[addresses[i]];
  return x;
};
let sink = 0;
let start = 0;
for (let r = 0; r < 5; r++) {
  newAddresses();
  start = chase(start);
  sink ^= gather();
}
const dependent = [];
const independent = [];
for (let r = 0; r < ROUNDS; r++) {
  let t = performance.now();
  start = chase(start);
  dependent.push(((performance.now() - t) * 1e6) / READS);
  newAddresses();
  t = performance.now();
  sink ^= gather();
  independent.push(((performance.now() - t) * 1e6) / READS);
}
res.dependent_read_ns = median(dependent);
res.independent_read_ns = median(independent);
res.huge_pages_MB = hugePagesMB();
res.sink = (sink ^ start) & 1;
console.log(JSON.stringify(res));
