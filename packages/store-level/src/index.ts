export { BintrieError } from "@bintrie/core";
export { LevelStore } from "./level-store.js";
export { type LevelStoreOptions, openLevelStore } from "./open-level-store.js";
