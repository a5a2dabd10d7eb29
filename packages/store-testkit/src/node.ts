// Node-only helpers: Node built-ins, esbuild, playwright-core (and vitest for the reload suite).
export { withChromiumPage } from "./chromium-page.js";
export {
  CHROMIUM_CANDIDATES,
  ChromiumNotFoundError,
  findChromium,
  requireChromium,
} from "./find-chromium.js";
export { describePageReload } from "./page-reload-suite.js";
export { random1000Checkpoints, sha256, sharedWorkload } from "./shared-workload-node.js";
