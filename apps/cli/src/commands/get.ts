import { bytesToHex } from "@bintrie/core";
import { CliError } from "../cli-error.js";
import { parseHexArg } from "../hex.js";
import { printLine } from "../line-output.js";
import { openCommittedTree } from "../open-committed-tree.js";
import { openStore } from "../open-store.js";
import { type StoreFlags, storeTarget } from "../store-target.js";

export interface GetFlags extends StoreFlags {
  readonly json?: boolean;
}

/** `bintrie get KEY`: the 32-byte value at KEY in the latest committed tree (exit 1 if absent). */
export async function runGet(keyText: string, flags: GetFlags): Promise<void> {
  const key = parseHexArg(keyText, "KEY", { bytes: 32 });
  const opened = await openStore(storeTarget(flags, { readOnly: true }), { create: false });
  try {
    const tree = await openCommittedTree(opened.store);
    const [value] = await tree.getMany([key]);
    if (flags.json) {
      printLine(
        JSON.stringify({
          key: bytesToHex(key),
          value: value === undefined ? null : bytesToHex(value),
        }),
      );
    } else if (value !== undefined) {
      printLine(bytesToHex(value));
    }
    if (value === undefined) {
      throw new CliError("NOT_FOUND", `no value at key ${bytesToHex(key)}`);
    }
  } finally {
    await opened.close();
  }
}
