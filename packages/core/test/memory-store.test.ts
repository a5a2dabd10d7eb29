import { describe, it } from "vitest";
import { storeConformanceSuite } from "../src/conformance/index.js";
import { MemoryStore } from "../src/index.js";

storeConformanceSuite({ describe, it }, () => new MemoryStore(), { name: "MemoryStore" });
