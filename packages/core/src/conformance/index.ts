export { ConformanceFailure } from "./conformance-assert.js";
export { FaultyStore, type FaultyStoreOptions } from "./faulty-store.js";
export {
  type OverlapScenario,
  randomScenarioOps,
  runOverlapScenario,
  type ScenarioOp,
  scenarioKey,
  scenarioValue,
} from "./overlap-scenario.js";
export {
  type ConformanceRunner,
  type StoreConformanceOptions,
  storeConformanceSuite,
} from "./store-conformance.js";
