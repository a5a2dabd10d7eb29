import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BinaryTree, openTree } from "@bintrie/core";
import { openLevelStore } from "@bintrie/store-level";

const dir = mkdtempSync(join(tmpdir(), "try-store-level-"));
const key = new Uint8Array(32).fill(7);
const store = await openLevelStore(dir);
const tree = new BinaryTree({ store });
tree.put(key, new Uint8Array(32).fill(9));
const root = await tree.persist();
await store.close();
const again = await openLevelStore(dir);
const reopened = await openTree(again);
const [value] = await reopened.getMany([key]);
await again.close();
rmSync(dir, { recursive: true, force: true });
if (value?.[0] !== 9 || Buffer.compare(reopened.hash(), root) !== 0)
  throw new Error("store-level: reopen failed");
console.log("store-level ok", Buffer.from(root).toString("hex"));
