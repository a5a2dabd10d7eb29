import { bytesToHex } from "@bintrie/core";
import { parseHexArg } from "../hex.js";
import { printLine } from "../line-output.js";
import { openStore } from "../open-store.js";
import { assertPlainTree, readRootRecord } from "../root-record.js";
import { type StoreFlags, storeTarget } from "../store-target.js";

export interface PutFlags extends StoreFlags {
  readonly groupDepth?: number;
  readonly scheme?: import("@bintrie/core").KeyScheme;
  readonly json?: boolean;
}

/** `bintrie put KEY VALUE`: sets one value in the latest committed tree and commits; prints the root. */
export async function runPut(keyText: string, valueText: string, flags: PutFlags): Promise<void> {
  const key = parseHexArg(keyText, "KEY", { bytes: 32 });
  const value = parseHexArg(valueText, "VALUE", { bytes: 32 });
  const { openTree } = await import("@bintrie/core");
  const opened = await openStore(storeTarget(flags), { create: true });
  let root: Uint8Array;
  try {
    let tree: Awaited<ReturnType<typeof openTree>>;
    try {
      assertPlainTree(await readRootRecord(opened.store));
      tree = await openTree(opened.store, {
        ...(flags.groupDepth === undefined ? {} : { groupDepth: flags.groupDepth }),
        ...(flags.scheme === undefined ? {} : { scheme: flags.scheme }),
      });
    } catch (error) {
      await opened.discard();
      throw error;
    }
    await tree.putMany([{ key, value }]);
    root = await tree.persist();
  } finally {
    await opened.close();
  }
  printLine(flags.json ? JSON.stringify({ root: bytesToHex(root) }) : bytesToHex(root));
}
