/** Browser side of the reload test (bundled by esbuild, served to Chromium). */
import { exposeReloadPage } from "@bintrie/store-testkit";
import { openLevelStore } from "../../src/index.js";

exposeReloadPage({
  create: (location) => openLevelStore(location),
  reopen: (location) => openLevelStore(location, { createIfMissing: false }),
});
