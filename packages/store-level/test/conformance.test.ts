import { join } from "node:path";
import { storeConformanceSuite } from "@bintrie/core/conformance";
import { afterAll, describe, it } from "vitest";
import { type LevelStore, openLevelStore } from "../src/index.js";
import { tempDirs } from "./helpers/temp-dir.js";

const dirs = tempDirs("level-conformance");
const owners: LevelStore[] = [];
afterAll(async () => {
  for (const owner of owners) await owner.close();
  dirs.removeAll();
});

storeConformanceSuite({ describe, it }, () => openLevelStore(join(dirs.make(), "db")), {
  name: "LevelStore (classic-level, no prefix)",
});

storeConformanceSuite(
  { describe, it },
  () => openLevelStore(join(dirs.make(), "db"), { prefix: "tree-a/" }),
  { name: "LevelStore (classic-level, prefix)" },
);

// A view over a database that another tree's data already fills, on both sides of its prefix:
// nothing of the neighbours may leak into gets or ordered iteration.
storeConformanceSuite(
  { describe, it },
  async () => {
    const owner = await openLevelStore(join(dirs.make(), "db"), { sync: false });
    owners.push(owner);
    const neighbours = [[0x10], [0x10, 0xff, 0xff], [0x12], [0x12, 0x00], [0xff, 0x11]];
    await owner.batch(
      neighbours.map((bytes) => ({
        type: "put",
        key: Uint8Array.from(bytes),
        value: Uint8Array.of(1),
      })),
    );
    return owner.withPrefix(Uint8Array.of(0x11));
  },
  { name: "LevelStore.withPrefix view between neighbours" },
);
