/**
 * Crash-test child: reopens the tree in a LevelDB and commits one large batch after another with
 * `tree.persist()` until it is killed. It prints "pending <i> <root>" before each commit,
 * "writing <i>" / "written <i>" around the LevelDB batch inside persist(), and
 * "committed <i> <root>" after, so
 * the parent knows which roots may be on disk and can aim kills into the write itself.
 *
 * argv: <location> <first iteration> <seed>
 */
import { type BatchOperation, type KVStore, openTree, type TreeEntry } from "@bintrie/core";
import { openLevelStore } from "../../src/index.js";
import { batchIndices, universeKey, valueAt } from "./crash-workload.js";

const [location, firstArg, seedArg] = process.argv.slice(2);
if (location === undefined || firstArg === undefined || seedArg === undefined) {
  throw new Error("usage: crash-child <location> <first iteration> <seed>");
}
const seed = Number(seedArg);
const level = await openLevelStore(location);
let iteration = Number(firstArg);

// The LevelStore itself, announcing each batch before it is written.
const store: KVStore = {
  get: (key) => level.get(key),
  getMany: (keys) => level.getMany(keys),
  close: () => level.close(),
  async batch(operations: readonly BatchOperation[]) {
    process.stdout.write(`writing ${iteration}\n`);
    await level.batch(operations);
    process.stdout.write(`written ${iteration}\n`);
  },
};

const tree = await openTree(store);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
process.stdout.write(`ready ${hex(tree.hash())}\n`);

for (; ; iteration++) {
  const entries: TreeEntry[] = [];
  for (const j of batchIndices(seed, iteration)) {
    const key = universeKey(j);
    entries.push({ key, value: valueAt(key, iteration) });
  }
  await tree.putMany(entries);
  process.stdout.write(`pending ${iteration} ${hex(tree.hash())}\n`);
  const root = await tree.persist();
  process.stdout.write(`committed ${iteration} ${hex(root)}\n`);
}
