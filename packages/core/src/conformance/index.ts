export {
  ConformanceFailure,
  type ConformanceRunner,
  type StoreConformanceOptions,
  storeConformanceSuite,
} from "./store-conformance.js";
