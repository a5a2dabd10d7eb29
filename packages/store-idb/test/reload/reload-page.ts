/** Browser side of the reload test (bundled by esbuild, served to Chromium). */
import { exposeReloadPage } from "@bintrie/store-testkit";
import { createIdbStore } from "../../src/index.js";

exposeReloadPage({
  create: async (database) => createIdbStore({ database, storeName: "nodes" }),
  async reopen(database) {
    const names = (await indexedDB.databases()).map((d) => d.name);
    if (!names.includes(database))
      throw new Error(`database ${database} did not survive the reload`);
    return createIdbStore({ database, storeName: "nodes" });
  },
});
