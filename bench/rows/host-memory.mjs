// What a process's memory costs on this host: the price of a fresh page, and how much of the
// process sits on transparent huge pages.
import { readFileSync } from "node:fs";
import { median } from "./workload.mjs";

/** Microseconds per 4 KiB page to write 32 MiB of fresh memory once (the median of 3 buffers). */
export function firstTouchUsPerPage() {
  const samples = [];
  for (let r = 0; r < 3; r++) {
    const fresh = new Uint8Array(32 << 20);
    const t = performance.now();
    for (let at = 0; at < fresh.length; at += 4096) fresh[at] = 1;
    samples.push(((performance.now() - t) * 1000) / (fresh.length / 4096));
  }
  return median(samples);
}

/**
 * MiB of this process's memory on transparent huge pages (AnonHugePages of
 * /proc/self/smaps_rollup), or null where that file does not exist: shows whether a run with
 * glibc's hugetlb tunable got them.
 */
export function hugePagesMB() {
  try {
    const text = readFileSync("/proc/self/smaps_rollup", "utf8");
    const kB = /^AnonHugePages:\s+(\d+) kB/m.exec(text)?.[1];
    return kB === undefined ? null : Number(kB) / 1024;
  } catch {
    return null;
  }
}
