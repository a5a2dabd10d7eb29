import "fake-indexeddb/auto";
import { storeConformanceSuite } from "@bintrie/core/conformance";
import { describe, it } from "vitest";
import { createIdbStore } from "../src/index.js";

let databases = 0;

storeConformanceSuite(
  { describe, it },
  () => createIdbStore({ database: `bintrie-conformance-${databases++}`, storeName: "nodes" }),
  { name: "IdbStore (fake-indexeddb in Node)" },
);
