/**
 * Crash-test child: reopens the tree in a LevelDB and commits one large batch after another
 * until it is killed. Before each commit it prints "pending <i> <root>", after it
 * "committed <i> <root>", so the parent knows which roots may be on disk when the kill lands.
 *
 * argv: <location> <first iteration> <seed>
 */
import { openTree, type TreeEntry } from "@bintrie/core";
import { openLevelStore } from "../../src/index.js";
import { batchIndices, universeKey, valueAt } from "./crash-workload.js";

const [location, firstArg, seedArg] = process.argv.slice(2);
if (location === undefined || firstArg === undefined || seedArg === undefined) {
  throw new Error("usage: crash-child <location> <first iteration> <seed>");
}
const seed = Number(seedArg);
const store = await openLevelStore(location);
const tree = await openTree(store);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
process.stdout.write(`ready ${hex(tree.hash())}\n`);

for (let i = Number(firstArg); ; i++) {
  const entries: TreeEntry[] = [];
  for (const j of batchIndices(seed, i)) {
    const key = universeKey(j);
    entries.push({ key, value: valueAt(key, i) });
  }
  await tree.putMany(entries);
  process.stdout.write(`pending ${i} ${hex(tree.hash())}\n`);
  const root = await tree.persist();
  process.stdout.write(`committed ${i} ${hex(root)}\n`);
}
