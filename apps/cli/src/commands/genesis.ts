import type { KeyScheme } from "@bintrie/core";
import { bytesToHex, isEmptyRoot } from "@bintrie/core";
import { allocError } from "../alloc-check.js";
import { CliError } from "../cli-error.js";
import { readGenesisAlloc } from "../genesis-file.js";
import { inputName } from "../input-source.js";
import { printLine } from "../line-output.js";
import { openStore } from "../open-store.js";
import { assertPlainTree, readRootRecord } from "../root-record.js";
import { type StoreFlags, storeTarget } from "../store-target.js";

export interface GenesisFlags extends StoreFlags {
  readonly groupDepth?: number;
  readonly scheme?: KeyScheme;
  readonly json?: boolean;
  readonly mpt?: boolean;
}

/**
 * `bintrie genesis FILE`: a geth genesis.json alloc → binary-tree genesis state (geth's rules:
 * header leaves, code chunks, non-zero storage), committed in one atomic batch; prints the root.
 */
export async function runGenesis(file: string, flags: GenesisFlags): Promise<void> {
  const target = storeTarget(flags);
  const alloc = await readGenesisAlloc(file);
  const { applyGenesisAlloc, openTree } = await import("@bintrie/core");
  const opened = await openStore(target, { create: true });
  let root: Uint8Array;
  let accounts: number;
  let mptRoot: Uint8Array | undefined;
  try {
    let tree: Awaited<ReturnType<typeof openTree>>;
    try {
      const record = await readRootRecord(opened.store);
      assertPlainTree(record);
      if (record !== undefined && !isEmptyRoot(record.root)) {
        const where = target.kind === "level" ? `the database at ${target.dir}` : "the store";
        throw new CliError(
          "BAD_STORE",
          `${where} already holds a committed tree (root ${bytesToHex(record.root)}); genesis needs an empty database`,
        );
      }
      tree = await openTree(opened.store, {
        ...(flags.groupDepth === undefined ? {} : { groupDepth: flags.groupDepth }),
        ...(flags.scheme === undefined ? {} : { scheme: flags.scheme }),
      });
      // Everything that can reject the input runs before the single write below; its errors
      // name the file and the account.
      try {
        accounts = applyGenesisAlloc(tree, alloc).accounts;
        if (flags.mpt) {
          // The MPT state of the same alloc, built in memory only for its root.
          const { buildMptBase } = await import("@bintrie/transition");
          const { MemoryStore } = await import("@bintrie/core");
          mptRoot = (await buildMptBase(new MemoryStore(), alloc)).root;
        }
      } catch (error) {
        throw await allocError(inputName(file), alloc, error);
      }
    } catch (error) {
      await opened.discard();
      throw error;
    }
    root = await tree.persist();
  } finally {
    await opened.close();
  }
  if (flags.json) {
    printLine(
      JSON.stringify({
        root: bytesToHex(root),
        accounts,
        ...(mptRoot === undefined ? {} : { mptRoot: bytesToHex(mptRoot) }),
      }),
    );
  } else {
    printLine(bytesToHex(root));
    if (mptRoot !== undefined) printLine(bytesToHex(mptRoot));
  }
}
