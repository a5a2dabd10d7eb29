import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { GenesisAlloc } from "@bintrie/core";
import { ChainGenesis } from "@ethereumjs/common";
import { getGenesis } from "@ethereumjs/genesis";

const SHARED = fileURLToPath(new URL("../../../../../shared/", import.meta.url));

/** A real alloc and the MPT root published for it. */
export interface PublishedAlloc {
  readonly name: string;
  readonly alloc: GenesisAlloc;
  /** The published MPT state root (0x-hex). */
  readonly mptRoot: string;
}

function jsonFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...jsonFiles(path));
    else if (name.endsWith(".json")) out.push(path);
  }
  return out;
}

interface BlockchainTest {
  readonly pre: GenesisAlloc;
  readonly genesisBlockHeader: { readonly stateRoot: string };
}

/**
 * The `pre` alloc of every blockchain test in shared/fixtures/blockchain with its genesis
 * header's stateRoot (the MPT root of `pre`), one entry per distinct pre state.
 */
export function blockchainTestAllocs(): PublishedAlloc[] {
  const root = join(SHARED, "fixtures/blockchain");
  const seen = new Set<string>();
  const out: PublishedAlloc[] = [];
  for (const file of jsonFiles(root)) {
    const cases = JSON.parse(readFileSync(file, "utf8")) as Record<string, BlockchainTest>;
    for (const [name, test] of Object.entries(cases)) {
      const stateRoot = test.genesisBlockHeader.stateRoot;
      if (seen.has(stateRoot)) continue;
      seen.add(stateRoot);
      out.push({
        name: `${file.slice(root.length + 1)} ${name}`,
        alloc: test.pre,
        mptRoot: stateRoot,
      });
    }
  }
  return out;
}

/** go-ethereum's TestBinaryGenesisCommit alloc and its binary genesis root. */
export function gethBinaryGenesis(): { alloc: GenesisAlloc; binaryRoot: string } {
  const g = JSON.parse(
    readFileSync(
      join(SHARED, "fixtures/eip7864-geth/TestBinaryGenesisCommit.genesis.json"),
      "utf8",
    ),
  ) as { alloc: GenesisAlloc; expectedStateRoot: string };
  return { alloc: g.alloc, binaryRoot: g.expectedStateRoot };
}

/** A public network's genesis alloc (@ethereumjs/genesis) and root (@ethereumjs/common). */
export function networkGenesis(chainId: 1 | 11155111 | 17000 | 560048): PublishedAlloc {
  const state = getGenesis(chainId);
  const published = ChainGenesis[chainId as keyof typeof ChainGenesis];
  if (state === undefined || published === undefined) throw new Error(`no genesis for ${chainId}`);
  const alloc: Record<
    string,
    { balance: string; code?: string; nonce?: string; storage?: Record<string, string> }
  > = {};
  for (const [address, entry] of Object.entries(state)) {
    if (typeof entry === "string") {
      alloc[address] = { balance: entry };
      continue;
    }
    const [balance, code, storage, nonce] = entry;
    alloc[address] = {
      balance,
      code: code ?? "0x",
      nonce: nonce ?? "0x0",
      storage: Object.fromEntries(storage ?? []),
    };
  }
  return {
    name: published.name,
    alloc,
    mptRoot: `0x${Buffer.from(published.stateRoot).toString("hex")}`,
  };
}
