// ownedBytes and copyBytes never hand back memory the caller still shares: a pooled Node Buffer's
// slice() is a view of the 8 KiB pool, so neither may copy with slice().
import { copyBytes, ownedBytes } from "@bintrie/core/bytes";
import { describe, expect, it } from "vitest";

describe("copyBytes", () => {
  it("copies a pooled Buffer into a plain, exact-size Uint8Array", () => {
    const pooled = Buffer.from([1, 2, 3]);
    expect(pooled.buffer.byteLength).toBeGreaterThan(3);
    const copy = copyBytes(pooled);
    pooled[0] = 9;
    expect(copy).toEqual(Uint8Array.of(1, 2, 3));
    expect(copy.constructor).toBe(Uint8Array);
    expect(copy.buffer.byteLength).toBe(3);
  });

  it("copies a whole-buffer array too", () => {
    const bytes = Uint8Array.of(4, 5);
    const copy = copyBytes(bytes);
    expect(copy).not.toBe(bytes);
    bytes[0] = 0;
    expect(copy).toEqual(Uint8Array.of(4, 5));
  });
});

describe("ownedBytes", () => {
  it("keeps an array that owns its whole buffer", () => {
    const bytes = Uint8Array.of(1, 2);
    expect(ownedBytes(bytes)).toBe(bytes);
  });

  it("copies a view, a pooled Buffer too, into a buffer of its own size", () => {
    const page = new Uint8Array(64).fill(7);
    const view = ownedBytes(page.subarray(8, 12));
    page[8] = 0;
    expect(view).toEqual(Uint8Array.of(7, 7, 7, 7));
    expect(view.buffer.byteLength).toBe(4);
    const pooled = Buffer.from([1, 2, 3]);
    const owned = ownedBytes(pooled);
    pooled[0] = 9;
    expect(owned).toEqual(Uint8Array.of(1, 2, 3));
    expect(owned.buffer.byteLength).toBe(3);
  });
});
