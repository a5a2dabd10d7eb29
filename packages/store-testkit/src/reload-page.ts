import { BinaryTree, type KVStore, openTree } from "@bintrie/core";
import { hex } from "./bytes.js";
import { PAGE_API_NAME, type ReloadPageApi } from "./reload-api.js";
import { finalContents, firstCommit, secondCommit } from "./reload-workload.js";

/** How the page opens the store under test; the only part that differs between stores. */
export interface ReloadPageStores {
  /** Opens (creating) the database at `location` for the first visit. */
  create(location: string): Promise<KVStore>;
  /** Opens the database at `location` after the reload; fails when it did not survive. */
  reopen(location: string): Promise<KVStore>;
}

/**
 * The browser side of the reload test: puts the ReloadPageApi on globalThis, where the Node
 * driver (describePageReload) calls it before and after reloading the page. Call it from the
 * page entry the driver bundles.
 */
export function exposeReloadPage(stores: ReloadPageStores): void {
  const api: ReloadPageApi = {
    async build(location) {
      const store = await stores.create(location);
      const tree = new BinaryTree({ store });
      await tree.putMany(firstCommit());
      await tree.persist();
      await tree.putMany(secondCommit());
      const root = await tree.persist();
      await store.close();
      return hex(root);
    },
    async reopen(location) {
      const store = await stores.reopen(location);
      const tree = await openTree(store);
      const contents = finalContents();
      const values = await tree.getMany(contents.map((e) => e.key));
      let mismatches = 0;
      contents.forEach((entry, i) => {
        if (values[i] === undefined || hex(values[i]) !== hex(entry.value)) mismatches++;
      });
      const root = hex(tree.hash());
      await store.close();
      return { root, mismatches, keys: contents.length };
    },
  };
  Object.assign(globalThis, { [PAGE_API_NAME]: api });
}
