import { describe, it } from "vitest";
import { storeGivesWayToAnotherConnection } from "../helpers/version-change-case.js";

describe("an open IdbStore lets another connection upgrade or delete its database (Chromium)", () => {
  it("closes its connection on versionchange and opens a new one on its next call", () =>
    storeGivesWayToAnotherConnection(`bintrie-idb-versionchange-${Date.now()}`));
});
