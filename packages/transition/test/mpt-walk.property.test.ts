import { EMPTY_MPT_ROOT as EMPTY_TRIE_ROOT, MemoryStore } from "@bintrie/core";
import { compareBytes } from "@bintrie/core/bytes";
import { MerklePatriciaTrie } from "@ethereumjs/mpt";
import { ValueEncoding } from "@ethereumjs/util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KVStoreDB } from "../src/kv-store-db.js";
import { walkMptLeaves } from "../src/mpt-walk.js";
import { hex } from "./helpers/bytes.js";

const PREFIX = Uint8Array.of(0x4d);

// Keys that share long prefixes (deep leaves small enough to be inlined in their parent) and
// random ones; values from 1 to 40 bytes.
const key = fc.oneof(
  fc.uint8Array({ minLength: 32, maxLength: 32 }),
  fc.tuple(fc.nat({ max: 3 }), fc.nat({ max: 255 })).map(([p, last]) => {
    const k = new Uint8Array(32).fill(p);
    k[31] = last;
    return k;
  }),
);
const entries = fc.uniqueArray(fc.tuple(key, fc.uint8Array({ minLength: 1, maxLength: 40 })), {
  selector: ([k]) => hex(k),
  maxLength: 60,
});

async function build(list: readonly (readonly [Uint8Array, Uint8Array])[]) {
  const store = new MemoryStore();
  const db = new KVStoreDB(store, PREFIX, { buffered: true });
  const trie = new MerklePatriciaTrie({ db, valueEncoding: ValueEncoding.Bytes });
  for (const [k, v] of list) await trie.put(k, v);
  await db.flush();
  const read = (hashes: readonly Uint8Array[]) =>
    store.getMany(hashes.map((h) => Uint8Array.of(...PREFIX, ...h)));
  return { root: trie.root(), read };
}

describe("walkMptLeaves", () => {
  it("yields every leaf >= start in ascending key order, inline nodes included", async () => {
    await fc.assert(
      fc.asyncProperty(
        entries,
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        async (list, start) => {
          const { root, read } = await build(list);
          const sorted = [...list].sort(([a], [b]) => compareBytes(a, b));
          const all = [];
          for await (const leaf of walkMptLeaves(read, root))
            all.push([hex(leaf.hashedKey), hex(leaf.value)]);
          expect(all).toEqual(sorted.map(([k, v]) => [hex(k), hex(v)]));
          // Seek to a random key, and to each present key (inclusive bound).
          const from = [];
          for await (const leaf of walkMptLeaves(read, root, start)) from.push(hex(leaf.hashedKey));
          expect(from).toEqual(
            sorted.filter(([k]) => compareBytes(k, start) >= 0).map(([k]) => hex(k)),
          );
          if (sorted.length > 0) {
            const middle = sorted[sorted.length >> 1]![0];
            const it = walkMptLeaves(read, root, middle);
            expect(hex((await it.next()).value!.hashedKey)).toBe(hex(middle));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("the empty root has no leaves; a missing node is an error, never a silent skip", async () => {
    const { read } = await build([]);
    const none = [];
    for await (const leaf of walkMptLeaves(read, EMPTY_TRIE_ROOT)) none.push(leaf);
    expect(none).toEqual([]);
    const missing = walkMptLeaves(async (h) => h.map(() => undefined), new Uint8Array(32).fill(7));
    await expect(missing.next()).rejects.toMatchObject({ code: "MISSING_BASE_DATA" });
  });
});
