import { bytesToHex } from "@bintrie/core";
import { printLine } from "../line-output.js";
import { openStore } from "../open-store.js";
import { readRootRecord } from "../root-record.js";
import { type StoreFlags, storeTarget } from "../store-target.js";

export interface RootFlags extends StoreFlags {
  readonly json?: boolean;
}

/** `bintrie root`: the latest committed root (32 zero bytes for a store nothing was committed to). */
export async function runRoot(flags: RootFlags): Promise<void> {
  const opened = await openStore(storeTarget(flags, { readOnly: true }), { create: false });
  try {
    const record = await readRootRecord(opened.store);
    const root = bytesToHex(record?.root ?? new Uint8Array(32));
    if (flags.json) {
      printLine(
        JSON.stringify({
          root,
          groupDepth: record?.groupDepth ?? null,
          scheme: record?.scheme ?? null,
        }),
      );
    } else {
      printLine(root);
    }
  } finally {
    await opened.close();
  }
}
