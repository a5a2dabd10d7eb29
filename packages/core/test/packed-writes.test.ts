import { describe, expect, it } from "vitest";
import { PACKED_ENTRY_WORDS } from "../src/tree/node-set.js";
import { PackedWrites } from "../src/tree/packed-writes.js";

const MIB = 1 << 20;

/** Appends one write of a `keyBytes`-byte key and `restBytes` after it, each byte = `fill`. */
function write(out: PackedWrites, keyBytes: number, restBytes: number, fill: number): void {
  const hashStart = out.begin(keyBytes, restBytes);
  out.chunk.fill(fill, hashStart - keyBytes, hashStart + restBytes);
  out.end(hashStart, hashStart + restBytes);
}

/** The bytes of write `i` (key, hash and blob) as its entry locates them. */
function bytesOf(out: PackedWrites, i: number): Uint8Array {
  const e = i * PACKED_ENTRY_WORDS;
  return out.chunks[out.entries[e]!]!.subarray(out.entries[e + 1]!, out.entries[e + 4]!);
}

describe("PackedWrites", () => {
  it("packs writes into 1 MiB chunks, each hash on a word, and opens a chunk when one is full", () => {
    const out = new PackedWrites();
    for (let i = 0; i < 2000; i++) write(out, 5 + (i % 7), 32 + 1000, i & 0xff);
    expect(out.count).toBe(2000);
    expect(out.chunks.length).toBe(2);
    expect(out.chunks.every((c) => c.length === MIB)).toBe(true);
    for (let i = 0; i < 2000; i++) {
      const e = i * PACKED_ENTRY_WORDS;
      expect(out.entries[e + 2]! % 4).toBe(0);
      expect(out.entries[e + 3]).toBe(out.entries[e + 2]! + 32);
      const bytes = bytesOf(out, i);
      expect(bytes.length).toBe(5 + (i % 7) + 1032);
      expect(bytes.every((b) => b === (i & 0xff))).toBe(true);
    }
  });

  it("writes into recycled chunks before it allocates, never into a chunk it is filling", () => {
    const out = new PackedWrites();
    for (let i = 0; i < 2000; i++) write(out, 6, 1032, 1);
    const first = [...out.chunks];
    out.reset();
    // A chunk of another size, and one given twice, are not taken.
    out.recycle([...first, new Uint8Array(MIB / 2), first[0]!]);
    write(out, 6, 1032, 2);
    // The last recycled chunk of full size comes back first.
    expect(out.chunks[0]).toBe(first[1]);
    for (let i = 1; i < 1500; i++) write(out, 6, 1032, 2);
    // Identities, not contents (a deep comparison of MiB arrays is slow).
    expect(out.chunks.map((c) => first.indexOf(c))).toEqual([1, 0]);
    // No spares left: the next chunk is new.
    for (let i = 0; i < 1000; i++) write(out, 6, 1032, 3);
    expect(out.chunks.length).toBe(3);
    expect(first.indexOf(out.chunks[2]!)).toBe(-1);
    // A chunk in use is never taken as a spare.
    out.recycle([out.chunk]);
    for (let i = 0; i < 1100; i++) write(out, 6, 1032, 4);
    expect(new Set(out.chunks).size).toBe(out.chunks.length);
  });

  it("keeps at most 16 spare chunks, and gives a write larger than a chunk its own", () => {
    const out = new PackedWrites();
    const many: Uint8Array[] = Array.from({ length: 20 }, () => new Uint8Array(MIB));
    out.recycle(many);
    const taken: Uint8Array[] = [];
    for (let k = 0; k < 17; k++) {
      write(out, 4, MIB - 64, k);
      taken.push(out.chunk);
    }
    expect(taken.map((c) => many.indexOf(c))).toEqual([
      15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1,
    ]);
    write(out, 4, 2 * MIB, 9);
    expect(out.chunk.length).toBeGreaterThanOrEqual(2 * MIB + 4);
    expect(bytesOf(out, out.count - 1).length).toBe(4 + 2 * MIB);
  });
});
