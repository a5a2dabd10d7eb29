import { readFileSync } from "node:fs";
import type { GenesisAlloc } from "@bintrie/core";
import { ChainGenesis } from "@ethereumjs/common";
import { getGenesis } from "@ethereumjs/genesis";

/** The repository's vendored test data (each folder has a PROVENANCE.md). */
const TESTDATA = new URL("../../../../testdata/", import.meta.url);

function readTestdata<T>(relative: string): T {
  return JSON.parse(readFileSync(new URL(relative, TESTDATA), "utf8")) as T;
}

/** A real alloc and the MPT root published for it. */
export interface PublishedAlloc {
  readonly name: string;
  readonly alloc: GenesisAlloc;
  /** The published MPT state root (0x-hex). */
  readonly mptRoot: string;
}

interface PreStateCase {
  readonly file: string;
  readonly name: string;
  /** The genesis header's stateRoot: the MPT root of `pre`. */
  readonly stateRoot: string;
  readonly pre: GenesisAlloc;
}

/**
 * The `pre` alloc of real blockchain tests with their genesis header's stateRoot (the MPT root
 * of `pre`), one entry per distinct pre state: testdata/blockchain/pre-states.json.
 */
export function blockchainTestAllocs(): PublishedAlloc[] {
  const { cases } = readTestdata<{ cases: PreStateCase[] }>("blockchain/pre-states.json");
  const seen = new Set<string>();
  const out: PublishedAlloc[] = [];
  for (const test of cases) {
    if (seen.has(test.stateRoot)) continue;
    seen.add(test.stateRoot);
    out.push({ name: `${test.file} ${test.name}`, alloc: test.pre, mptRoot: test.stateRoot });
  }
  return out;
}

/** go-ethereum's TestBinaryGenesisCommit alloc and its binary genesis root. */
export function gethBinaryGenesis(): { alloc: GenesisAlloc; binaryRoot: string } {
  const g = readTestdata<{ alloc: GenesisAlloc; expectedStateRoot: string }>(
    "geth/TestBinaryGenesisCommit.genesis.json",
  );
  return { alloc: g.alloc, binaryRoot: g.expectedStateRoot };
}

/**
 * A random alloc (testdata/geth/geth-random-genesis.json) and, per group depth 1..8, go-ethereum's
 * binary genesis root, number of stored nodes and digest of them (`0x<path>=0x<blob>\n` sorted).
 */
export function gethRandomGenesis(): {
  alloc: GenesisAlloc;
  groupDepths: Record<string, { root: string; nodes: number; nodesDigest: string }>;
} {
  return readTestdata("geth/geth-random-genesis.json");
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
