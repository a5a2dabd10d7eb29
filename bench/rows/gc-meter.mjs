// Sums V8 garbage-collection pause time while a region runs (PerformanceObserver 'gc').
import { PerformanceObserver } from "node:perf_hooks";

export function startGcMeter() {
  let total = 0;
  let count = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      total += entry.duration;
      count++;
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return {
    async stop() {
      // GC entries are delivered asynchronously; let pending ones arrive.
      await new Promise((resolve) => setTimeout(resolve, 50));
      observer.disconnect();
      return { gc_ms: total, gc_count: count };
    },
  };
}
