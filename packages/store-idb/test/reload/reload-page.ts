/** Browser side of the reload test (bundled by esbuild, served to Chromium). */
import { BinaryTree, openTree } from "@bintrie/core";
import { createIdbStore } from "../../src/index.js";
import { PAGE_API_NAME, type ReloadPageApi } from "./reload-api.js";
import { finalContents, firstCommit, secondCommit, toHex } from "./reload-workload.js";

const api: ReloadPageApi = {
  async build(database) {
    const store = createIdbStore({ database, storeName: "nodes" });
    const tree = new BinaryTree({ store });
    await tree.putMany(firstCommit());
    await tree.persist();
    await tree.putMany(secondCommit());
    const root = await tree.persist();
    await store.close();
    return toHex(root);
  },
  async reopen(database) {
    const names = (await indexedDB.databases()).map((d) => d.name);
    if (!names.includes(database))
      throw new Error(`database ${database} did not survive the reload`);
    const store = createIdbStore({ database, storeName: "nodes" });
    const tree = await openTree(store);
    const contents = finalContents();
    const values = await tree.getMany(contents.map((e) => e.key));
    let mismatches = 0;
    contents.forEach((entry, i) => {
      if (values[i] === undefined || toHex(values[i]) !== toHex(entry.value)) mismatches++;
    });
    const root = toHex(tree.hash());
    await store.close();
    return { root, mismatches, keys: contents.length };
  },
};

Object.assign(globalThis, { [PAGE_API_NAME]: api });
