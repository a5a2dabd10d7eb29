import { bytesToHex } from "@bintrie/core";
import { parseAddress, parseSlot } from "../account-args.js";
import { CliError } from "../cli-error.js";
import { printLine } from "../line-output.js";
import { openCommittedTree } from "../open-committed-tree.js";
import { openStore } from "../open-store.js";
import { type StoreFlags, storeTarget } from "../store-target.js";

export interface AccountFlags extends StoreFlags {
  readonly json?: boolean;
}

/** `bintrie account ADDRESS`: the decoded BASIC_DATA and CODE_HASH leaves (exit 1 if absent). */
export async function runAccount(addressText: string, flags: AccountFlags): Promise<void> {
  const address = parseAddress(addressText);
  const { unpackBasicData } = await import("@bintrie/core");
  const opened = await openStore(storeTarget(flags, { readOnly: true }), { create: false });
  try {
    const tree = await openCommittedTree(opened.store);
    const keys = tree.keys;
    const [basic, codeHash] = await tree.getMany([
      keys.basicDataKey(address),
      keys.codeHashKey(address),
    ]);
    const account = tree.getAccount(address);
    if (account === undefined || basic === undefined) {
      if (flags.json) printLine(JSON.stringify(null));
      throw new CliError("NOT_FOUND", `no account at ${bytesToHex(address)}`);
    }
    const data = unpackBasicData(basic);
    const fields = {
      address: bytesToHex(address),
      version: data.version,
      nonce: data.nonce.toString(),
      balance: data.balance.toString(),
      codeSize: data.codeSize,
      codeHash: bytesToHex(codeHash ?? account.codeHash),
    };
    if (flags.json) {
      printLine(JSON.stringify(fields));
    } else {
      for (const [name, value] of Object.entries(fields)) printLine(`${name.padEnd(9)} ${value}`);
    }
  } finally {
    await opened.close();
  }
}

/** `bintrie storage ADDRESS SLOT`: the 32-byte value of a storage slot (exit 1 if absent). */
export async function runStorage(
  addressText: string,
  slotText: string,
  flags: AccountFlags,
): Promise<void> {
  const address = parseAddress(addressText);
  const slot = parseSlot(slotText);
  const opened = await openStore(storeTarget(flags, { readOnly: true }), { create: false });
  try {
    const tree = await openCommittedTree(opened.store);
    const key = tree.keys.storageSlotKey(address, slot);
    const [value] = await tree.getMany([key]);
    if (flags.json) {
      printLine(
        JSON.stringify({
          address: bytesToHex(address),
          slot: bytesToHex(slot),
          key: bytesToHex(key),
          value: value === undefined ? null : bytesToHex(value),
        }),
      );
    } else if (value !== undefined) {
      printLine(bytesToHex(value));
    }
    if (value === undefined) {
      throw new CliError(
        "NOT_FOUND",
        `no value at slot ${bytesToHex(slot)} of ${bytesToHex(address)}`,
      );
    }
  } finally {
    await opened.close();
  }
}

/** `bintrie code ADDRESS`: the code rebuilt from its chunks ("0x" for an account without code). */
export async function runCode(addressText: string, flags: AccountFlags): Promise<void> {
  const address = parseAddress(addressText);
  const opened = await openStore(storeTarget(flags, { readOnly: true }), { create: false });
  try {
    const tree = await openCommittedTree(opened.store);
    const keys = tree.keys;
    await tree.load([keys.basicDataKey(address)]);
    const account = tree.getAccount(address);
    if (account === undefined) {
      if (flags.json) printLine(JSON.stringify(null));
      throw new CliError("NOT_FOUND", `no account at ${bytesToHex(address)}`);
    }
    const chunks = Math.ceil(account.codeSize / 31);
    const chunkKeys: Uint8Array[] = [];
    for (let i = 0; i < chunks; i++) chunkKeys.push(keys.codeChunkKey(address, i));
    await tree.load(chunkKeys);
    const code = tree.getCode(address);
    if (flags.json) {
      printLine(
        JSON.stringify({
          address: bytesToHex(address),
          codeSize: code.length,
          code: bytesToHex(code),
        }),
      );
    } else {
      printLine(bytesToHex(code));
    }
  } finally {
    await opened.close();
  }
}
