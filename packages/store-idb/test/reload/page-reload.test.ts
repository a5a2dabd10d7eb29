import { fileURLToPath } from "node:url";
import { describePageReload } from "@bintrie/store-testkit/node";

describePageReload("IdbStore", fileURLToPath(new URL("./reload-page.ts", import.meta.url)));
