import { bytesToHex } from "@bintrie/core";
import { LineOutput } from "../line-output.js";
import { openStore } from "../open-store.js";
import { type StoreFlags, storeTarget } from "../store-target.js";
import { storedNodes } from "../stored-nodes.js";

/** `bintrie nodes`: every stored node as a JSON line {"path","blob"}, sorted by path bytes. */
export async function runNodes(flags: StoreFlags): Promise<void> {
  const opened = await openStore(storeTarget(flags, { readOnly: true }), { create: false });
  try {
    const out = new LineOutput();
    for await (const [path, blob] of storedNodes(opened.store)) {
      const pending = out.line(`{"path":"${bytesToHex(path)}","blob":"${bytesToHex(blob)}"}`);
      if (pending !== undefined) await pending;
    }
    await out.flush();
  } finally {
    await opened.close();
  }
}
