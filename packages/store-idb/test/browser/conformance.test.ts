import { storeConformanceSuite } from "@bintrie/core/conformance";
import { describe, it } from "vitest";
import { createIdbStore } from "../../src/index.js";

let databases = 0;

storeConformanceSuite(
  { describe, it },
  () =>
    createIdbStore({
      database: `bintrie-conformance-${Date.now()}-${databases++}`,
      storeName: "nodes",
    }),
  { name: "IdbStore (IndexedDB in Chromium)" },
);
