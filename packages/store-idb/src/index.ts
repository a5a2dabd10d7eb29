export { BintrieError } from "@bintrie/core";
export { createIdbStore } from "./create-idb-store.js";
export { IdbStore, type IdbStoreLocation } from "./idb-store.js";
