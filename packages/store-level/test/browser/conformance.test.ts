import { storeConformanceSuite } from "@bintrie/core/conformance";
import { describe, it } from "vitest";
import { openLevelStore } from "../../src/index.js";

// In the browser `level` is browser-level: each location is its own IndexedDB database.
let databases = 0;
const freshLocation = () => `bintrie-level-conformance-${Date.now()}-${databases++}`;

storeConformanceSuite({ describe, it }, () => openLevelStore(freshLocation()), {
  name: "LevelStore (browser-level in Chromium, no prefix)",
});

storeConformanceSuite({ describe, it }, () => openLevelStore(freshLocation(), { prefix: "t/" }), {
  name: "LevelStore (browser-level in Chromium, prefix)",
});
