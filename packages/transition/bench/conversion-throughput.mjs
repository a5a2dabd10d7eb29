// Conversion throughput (base leaves/s) and peak RSS.
//
//   pnpm --filter @bintrie/transition build && pnpm --filter @bintrie/transition bench
//   node bench/conversion-throughput.mjs [--accounts 20000] [--slots 10] [--step 50000]
//                                        [--max-nodes N] [--only synthetic|mainnet]
//
// For each state the MPT base is written to a fresh LevelDB by one child process; a second
// child opens the transition there, converts everything (persisting after every step) and
// reports time, leaves/s and its own peak RSS, then checks the root against a direct binary
// build of the same alloc.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyGenesisAlloc, BinaryTree } from "@bintrie/core";
import { openLevelStore } from "@bintrie/store-level";
import { getGenesis } from "@ethereumjs/genesis";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { buildMptBase, preimagesFromAlloc, TransitionState } from "../dist/index.js";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};
const hex = (b) => Buffer.from(b).toString("hex");
const word = (n) => n.toString(16).padStart(64, "0");

/** accounts with `slots` slots each; every 5th has 1 KiB of code. Deterministic. */
function syntheticAlloc(accounts, slots) {
  const alloc = {};
  const code = `0x${"6001600055".repeat(205)}`.slice(0, 2 + 2048);
  for (let i = 0; i < accounts; i++) {
    const address = hex(keccak_256(Buffer.from(word(BigInt(i)), "hex")).subarray(0, 20));
    const storage = {};
    for (let s = 0; s < slots; s++)
      storage[`0x${word(BigInt(i * 1000 + s))}`] = `0x${(s + 1).toString(16)}`;
    alloc[`0x${address}`] = {
      balance: `0x${(BigInt(i + 1) * 10n ** 18n).toString(16)}`,
      nonce: `0x${(i % 7).toString(16)}`,
      code: i % 5 === 0 ? code : "0x",
      storage,
    };
  }
  return alloc;
}

function mainnetAlloc() {
  const alloc = {};
  for (const [address, entry] of Object.entries(getGenesis(1))) {
    alloc[address] = typeof entry === "string" ? { balance: entry } : { balance: entry[0] };
  }
  return alloc;
}

function allocFor(name) {
  if (name === "mainnet") return mainnetAlloc();
  return syntheticAlloc(Number(option("accounts", "20000")), Number(option("slots", "10")));
}

async function childBuild(name, dir) {
  const alloc = allocFor(name);
  const store = await openLevelStore(dir, { sync: false });
  const t0 = performance.now();
  const result = await buildMptBase(store, alloc);
  await store.close();
  return {
    root: hex(result.root),
    accounts: result.accounts,
    slots: result.storageSlots,
    codeBytes: result.codeBytes,
    buildMs: Math.round(performance.now() - t0),
  };
}

async function childConvert(name, dir, root) {
  // Only the preimages stay alive during conversion; the alloc is rebuilt for the final check.
  const preimages = preimagesFromAlloc(allocFor(name));
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const store = await openLevelStore(dir, { sync: false });
  const maxNodes = option("max-nodes", undefined);
  const t = await TransitionState.open(store, {
    baseRoot: Buffer.from(root, "hex"),
    preimages,
    maxNodes: maxNodes === undefined ? undefined : Number(maxNodes),
  });
  let steps = 0;
  const t0 = performance.now();
  const last = await t.convertAll({
    leavesPerStep: Number(option("step", "50000")),
    onProgress: () => {
      steps++;
      if (process.env.BENCH_MEMORY !== undefined) {
        const m = process.memoryUsage();
        const mib = (n) => Math.round(n / 2 ** 20);
        console.error(
          `step ${steps}: rss ${mib(m.rss)} heap ${mib(m.heapUsed)}/${mib(m.heapTotal)} external ${mib(m.external)} arrayBuffers ${mib(m.arrayBuffers)} MiB`,
        );
      }
    },
  });
  const ms = performance.now() - t0;
  // Peak so far: building the preimages, then the conversion (not the check below).
  const peakRssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  const leaves = last.counters.leavesWritten + last.counters.leavesKept;
  const binaryRoot = hex(t.hash());
  const overlayNodes = t.overlay.stats();
  await store.close();
  const fresh = new BinaryTree();
  applyGenesisAlloc(fresh, allocFor(name));
  return {
    leaves,
    steps,
    convertMs: Math.round(ms),
    leavesPerSecond: Math.round((leaves / ms) * 1000),
    peakRssMiB,
    rssWithPreimagesMiB: Math.round(rssBefore / 2 ** 20),
    overlayStemsInMemory: overlayNodes.stem,
    rootMatchesFreshBuild: binaryRoot === hex(fresh.hash()),
  };
}

function runChild(...childArgs) {
  const out = spawnSync(
    process.execPath,
    ["--expose-gc", fileURLToPath(import.meta.url), ...childArgs, ...args],
    {
      encoding: "utf8",
      maxBuffer: 1 << 24,
    },
  );
  if (out.status !== 0) throw new Error(`child ${childArgs[0]} failed:\n${out.stderr}`);
  return JSON.parse(out.stdout.trim().split("\n").pop());
}

if (args[0] === "child-build") {
  console.log(JSON.stringify(await childBuild(args[1], args[2])));
} else if (args[0] === "child-convert") {
  console.log(JSON.stringify(await childConvert(args[1], args[2], args[3])));
} else {
  const only = option("only", undefined);
  for (const name of ["synthetic", "mainnet"]) {
    if (only !== undefined && only !== name) continue;
    const dir = mkdtempSync(join(tmpdir(), "bintrie-convert-bench-"));
    try {
      const built = runChild("child-build", name, dir);
      const converted = runChild("child-convert", name, dir, built.root);
      console.log(JSON.stringify({ state: name, ...built, ...converted }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
