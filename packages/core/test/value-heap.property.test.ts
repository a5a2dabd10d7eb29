import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_BLOCK_CLASS, ValueHeap } from "../src/tree/value-heap.js";

describe("ValueHeap", () => {
  it("reuses freed blocks (splitting larger ones) before growing; live blocks never overlap (100 runs)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: MAX_BLOCK_CLASS })), {
          minLength: 1,
          maxLength: 300,
        }),
        (steps) => {
          const heap = new ValueHeap();
          const live = new Map<number, number>();
          // The free blocks, split the way the heap documents: the head half kept at each level.
          const free = new Map<number, number>();
          for (const [release, sizeClass] of steps) {
            if (release && live.size > 0) {
              const [address, cls] = live.entries().next().value as [number, number];
              live.delete(address);
              heap.release(address, cls);
              free.set(address, cls);
              continue;
            }
            const address = heap.alloc(sizeClass);
            const end = address + (1 << sizeClass);
            const fits = [...free].filter(([, cls]) => cls >= sizeClass);
            if (fits.length > 0) {
              // Taken from a free block of the smallest fitting class, not from fresh space.
              const smallest = Math.min(...fits.map(([, cls]) => cls));
              expect(free.get(address)).toBe(smallest);
              free.delete(address);
              for (let k = smallest - 1; k >= sizeClass; k--) free.set(address + (1 << k), k);
            }
            for (const [other, cls] of live) {
              expect(end <= other || other + (1 << cls) <= address).toBe(true);
            }
            live.set(address, sizeClass);
          }
          let slots = 0;
          for (const cls of live.values()) slots += 1 << cls;
          expect(heap.liveSlots).toBe(slots);
        },
      ),
      { numRuns: 100 },
    );
  });
});
