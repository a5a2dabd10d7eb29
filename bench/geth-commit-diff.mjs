// Diffs BinaryTree commits against go-ethereum's own (`../shared/tools/geth-bintrie commit`) on
// fresh random inputs: two commits (the second updates existing keys, adds keys that split
// stored stems and extends stems), several group depths. Compares roots, each commit's writes
// (path → blob) and the stored nodes after the last commit (geth's db minus the paths it never
// reads again, see the tool's README). Usage: node bench/geth-commit-diff.mjs [SEED] [N]
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BinaryTree, MemoryStore } from "@bintrie/core";
import { xorshift32 } from "./rows/workload.mjs";

const tool = fileURLToPath(
  new URL("../../shared/tools/geth-bintrie/geth-bintrie", import.meta.url),
);
if (!existsSync(tool)) {
  console.log(JSON.stringify({ skipped: `${tool} not found` }));
  process.exit(0);
}
const n = Number(process.argv[3] ?? 3000);
const rand = xorshift32(Number(process.argv[2] ?? 1) >>> 0 || 1);
const randomBytes = (k) => Uint8Array.from({ length: k }, () => Math.floor(rand() * 256));
const hex = (b) => `0x${Buffer.from(b).toString("hex")}`;

const first = [];
for (let i = 0; i < n; i++) {
  const key = randomBytes(32);
  first.push([key, randomBytes(32)]);
  // Some stems get several values.
  if (rand() < 0.2)
    first.push([Uint8Array.from([...key.subarray(0, 31), key[31] ^ 1]), randomBytes(32)]);
}
const second = [];
for (let i = 0; i < n / 5; i++)
  second.push([first[Math.floor(rand() * first.length)][0], randomBytes(32)]);
for (let i = 0; i < n / 10; i++) {
  // A new stem sharing a long prefix with a stored one: splits it (its old path is orphaned).
  const near = first[Math.floor(rand() * first.length)][0].slice();
  near[8 + Math.floor(rand() * 20)] ^= 1 << Math.floor(rand() * 8);
  second.push([near, randomBytes(32)]);
}
for (let i = 0; i < n / 10; i++) second.push([randomBytes(32), randomBytes(32)]);

const dir = mkdtempSync(join(tmpdir(), "geth-diff-"));
const lines = (entries) =>
  entries.map(([k, v]) => JSON.stringify({ key: hex(k), value: hex(v) })).join("\n");
writeFileSync(join(dir, "a.jsonl"), `${lines(first)}\n`);
writeFileSync(join(dir, "b.jsonl"), `${lines(second)}\n`);

const failures = [];
for (const g of [1, 3, 5, 8]) {
  const geth = JSON.parse(
    execFileSync(
      tool,
      ["commit", "--group-depth", String(g), join(dir, "a.jsonl"), join(dir, "b.jsonl")],
      {
        encoding: "utf8",
        maxBuffer: 1 << 30,
      },
    ),
  );
  const store = new MemoryStore();
  const tree = new BinaryTree({ groupDepth: g, store });
  for (const [i, entries] of [first, second].entries()) {
    for (const [k, v] of entries) tree.put(k, v);
    const set = tree.commit();
    await store.batch(tree.nodeSetOperations(set));
    const expected = geth.commits[i];
    if (hex(set.root) !== expected.root)
      failures.push(`g=${g} commit ${i}: root ${hex(set.root)} != ${expected.root}`);
    const ours = Object.fromEntries(set.writes.map((w) => [hex(w.path), hex(w.blob)]));
    const keys = new Set([...Object.keys(ours), ...Object.keys(expected.writes)]);
    let diff = 0;
    for (const k of keys) if (ours[k] !== expected.writes[k]) diff++;
    if (diff > 0) failures.push(`g=${g} commit ${i}: ${diff} of ${keys.size} written paths differ`);
    console.error(
      `g=${g} commit ${i}: ours ${set.writes.length} writes, ${set.deletes.length} deletes`,
    );
  }
  // Stored nodes after the last commit.
  const unreachable = new Set(geth.unreachableAfterLastCommit);
  const expectedDb = Object.entries(geth.commits.at(-1).db).filter(([p]) => !unreachable.has(p));
  const ourDb = new Map();
  for await (const [k, v] of store.entries())
    if (k[0] === 0x76 && k[1] === 0x41) ourDb.set(hex(k.subarray(2)), hex(v));
  let dbDiff = Math.abs(ourDb.size - expectedDb.length);
  for (const [p, blob] of expectedDb) if (ourDb.get(p) !== blob) dbDiff++;
  if (dbDiff > 0)
    failures.push(
      `g=${g}: ${dbDiff} stored nodes differ (ours ${ourDb.size}, geth ${expectedDb.length})`,
    );
  console.error(
    `g=${g}: ${geth.commits.map((c) => Object.keys(c.writes).length).join(" + ")} writes, ${expectedDb.length} stored nodes`,
  );
}
console.log(
  JSON.stringify({
    seed: process.argv[2] ?? 1,
    n,
    entries: [first.length, second.length],
    failures,
  }),
);
process.exit(failures.length === 0 ? 0 : 1);
