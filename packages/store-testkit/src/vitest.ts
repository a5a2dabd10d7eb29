// Assertion helpers on vitest's expect (any environment).
export { expectStoreBench } from "./expect-store-bench.js";
export { expectStoreError } from "./expect-store-error.js";
