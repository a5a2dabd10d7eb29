// Environment-neutral helpers (Node and browser pages): no test framework, no Node built-ins.
export { fromHex, hex, prng } from "./bytes.js";
export { collectEntries } from "./collect-entries.js";
export { PAGE_API_NAME, type ReloadPageApi } from "./reload-api.js";
export { exposeReloadPage, type ReloadPageStores } from "./reload-page.js";
export {
  FIRST_KEYS,
  finalContents,
  firstCommit,
  SECOND_NEW_KEYS,
  SECOND_UPDATES,
  secondCommit,
} from "./reload-workload.js";
export { SHARED_ROOTS } from "./shared-roots.js";
export { type Sha256, sharedUpdate, sharedWorkloadWith } from "./shared-workload.js";
export { runStoreBench, type StoreBenchOptions, type StoreBenchResult } from "./store-bench.js";
