export { type LevelStoreOptions, openLevelStore } from "./open-level-store.js";
export { LevelStore } from "./level-store.js";
