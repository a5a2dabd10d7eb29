import { spawn } from "node:child_process";
import { join } from "node:path";
import { BinaryTree, openTree } from "@bintrie/core";
import { hex } from "@bintrie/store-testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLevelStore } from "../../src/index.js";
import { tempDirs } from "../helpers/temp-dir.js";
import { buildCrashChild } from "./build-child.js";
import { BATCH_WRITES, batchIndices, UNIVERSE, universeKey, valueAt } from "./crash-workload.js";

const KILLS = Number(process.env.CRASH_KILLS ?? 20);
/**
 * Kill moments, by round: a uniform moment in [0, 700) ms after the child is ready (anywhere:
 * building, hashing, writing, between commits); [0, 60) ms after a "pending" line (while
 * persist() serializes and writes); [0, 50) ms after a "writing" line (inside LevelDB's write).
 */
const KILL_MODES = [
  { after: "ready", maxDelayMs: 700 },
  { after: "pending", maxDelayMs: 60 },
  { after: "writing", maxDelayMs: 50 },
] as const;
const SEED = Number(process.env.CRASH_SEED ?? 7);
const EMPTY_ROOT = "00".repeat(32);

const dirs = tempDirs("level-crash");
afterAll(() => dirs.removeAll());

let childScript: string;
beforeAll(async () => {
  childScript = await buildCrashChild();
});

interface ChildReport {
  /** Root of each iteration the child finished committing. */
  committed: Map<number, string>;
  /** The iteration whose commit was under way when the child died, if any, and its root. */
  pending: { iteration: number; root: string } | undefined;
  /** Whether the child died inside the LevelDB write (between "writing" and "written"). */
  diedWriting: boolean;
}

/** When to kill: `delayMs` after the `count`-th line of kind `after`. */
interface KillPlan {
  readonly after: "ready" | "pending" | "writing";
  readonly count: number;
  readonly delayMs: number;
}

/** Runs the child from `first`, kills it with SIGKILL as planned, returns what it said. */
function runAndKill(location: string, first: number, plan: KillPlan): Promise<ChildReport> {
  const child = spawn(process.execPath, [childScript, location, String(first), String(SEED)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const report: ChildReport = { committed: new Map(), pending: undefined, diedWriting: false };
  let buffered = "";
  let stderr = "";
  let seen = 0;
  return new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const [kind, a, b] = buffered.slice(0, newline).split(" ");
        buffered = buffered.slice(newline + 1);
        if (kind === plan.after && ++seen === plan.count) {
          setTimeout(() => child.kill("SIGKILL"), plan.delayMs);
        }
        if (kind === "pending") report.pending = { iteration: Number(a), root: b! };
        if (kind === "writing") report.diedWriting = true;
        if (kind === "written") report.diedWriting = false;
        else if (kind === "committed") {
          report.committed.set(Number(a), b!);
          report.pending = undefined;
        }
        newline = buffered.indexOf("\n");
      }
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve(report);
      else
        reject(new Error(`crash child exited with ${code ?? signal} before the kill: ${stderr}`));
    });
  });
}

/** Which iteration last wrote each universe key (-1: never), advanced one iteration at a time. */
class Model {
  readonly lastWriter = new Int32Array(UNIVERSE).fill(-1);
  readonly keys = Array.from({ length: UNIVERSE }, (_, j) => universeKey(j));
  applied = -1;

  advanceTo(iteration: number): void {
    for (let i = this.applied + 1; i <= iteration; i++) {
      for (const j of batchIndices(SEED, i)) this.lastWriter[j] = i;
    }
    this.applied = Math.max(this.applied, iteration);
  }

  present(): { key: Uint8Array; value: Uint8Array }[] {
    const out = [];
    for (let j = 0; j < UNIVERSE; j++) {
      const writer = this.lastWriter[j]!;
      if (writer >= 0) out.push({ key: this.keys[j]!, value: valueAt(this.keys[j]!, writer) });
    }
    return out;
  }
}

/** Root and node set (hex path → blob) of a fresh tree holding exactly `entries`. */
function freshNodes(entries: readonly { key: Uint8Array; value: Uint8Array }[]): {
  root: string;
  nodes: Map<string, Uint8Array>;
} {
  const fresh = new BinaryTree();
  for (const { key, value } of entries) fresh.put(key, value);
  const set = fresh.commit();
  return { root: hex(set.root), nodes: new Map(set.writes.map((w) => [hex(w.path), w.blob])) };
}

describe(`crash recovery: ${KILLS} SIGKILLs during ${BATCH_WRITES}-key commits into LevelDB`, () => {
  it("every reopen yields exactly one committed root, all its values and exactly its nodes", async () => {
    const location = join(dirs.make(), "db");
    const model = new Model();
    let verifiedRoot = EMPTY_ROOT;
    const outcomes = {
      betweenCommits: 0,
      midCommitRolledBack: 0,
      midCommitLanded: 0,
      insideWrite: 0,
    };
    let commits = 0;
    let expectedNodes = { root: EMPTY_ROOT, nodes: new Map<string, Uint8Array>() };
    let childMs = 0;
    let verifyMs = 0;

    for (let round = 0; round < KILLS; round++) {
      const first = model.applied + 1;
      const mode = KILL_MODES[round % KILL_MODES.length]!;
      const plan: KillPlan = {
        after: mode.after,
        count: mode.after === "ready" ? 1 : 1 + Math.floor(Math.random() * 2),
        delayMs: Math.floor(Math.random() * mode.maxDelayMs),
      };
      let started = performance.now();
      const report = await runAndKill(location, first, plan);
      childMs += performance.now() - started;
      started = performance.now();
      commits += report.committed.size;

      // The only roots allowed on disk: the last one the child finished (or, if it finished
      // none, the one we verified before it started) and the one it was committing when killed.
      const lastDone = report.committed.size > 0 ? Math.max(...report.committed.keys()) : first - 1;
      const candidates = new Map<string, number>([
        [report.committed.get(lastDone) ?? verifiedRoot, lastDone],
      ]);
      if (report.pending !== undefined)
        candidates.set(report.pending.root, report.pending.iteration);

      const store = await openLevelStore(location);
      try {
        const tree = await openTree(store);
        const root = hex(tree.hash());
        const context = `round ${round} (kill ${plan.delayMs} ms after ${plan.after} #${plan.count}, seed ${SEED}): root ${root}, allowed ${[...candidates.keys()]}`;
        expect(candidates.has(root), context).toBe(true);
        const iteration = candidates.get(root)!;
        // Killed between "pending" and "committed": inside persist() (or just after it).
        if (report.pending === undefined) outcomes.betweenCommits++;
        else if (iteration === report.pending.iteration) outcomes.midCommitLanded++;
        else outcomes.midCommitRolledBack++;
        if (report.diedWriting) outcomes.insideWrite++;

        model.advanceTo(iteration);
        const entries = model.present();

        // A fresh tree of exactly the model's contents has this root and these nodes, byte for
        // byte: nothing committed is missing and no stale node survived.
        if (expectedNodes.root !== root) expectedNodes = freshNodes(entries);
        expect(expectedNodes.root, context).toBe(root);
        const surprises: string[] = [];
        let stored = 0;
        for await (const [key, blob] of store.entries({
          gte: Uint8Array.of(0x76, 0x41),
          lt: Uint8Array.of(0x76, 0x42),
        })) {
          stored++;
          const path = hex(key.subarray(2));
          const want = expectedNodes.nodes.get(path);
          if (want === undefined) surprises.push(`stale node at path ${path}`);
          else if (Buffer.compare(want, blob) !== 0)
            surprises.push(`different blob at path ${path}`);
        }
        expect(surprises.slice(0, 5), context).toEqual([]);
        expect(stored, `${context}: stored node count`).toBe(expectedNodes.nodes.size);

        // Loading every key walks every reachable node, decoding and hash-checking each one.
        const values = await tree.getMany(entries.map((e) => e.key));
        for (let i = 0; i < entries.length; i++) {
          if (Buffer.compare(values[i]!, entries[i]!.value) !== 0) {
            expect.fail(`${context}: value of key ${hex(entries[i]!.key)} differs`);
          }
        }
        verifiedRoot = root;
      } finally {
        await store.close();
      }
      verifyMs += performance.now() - started;
    }
    console.log(
      `crash test: ${KILLS}/${KILLS} reopens verified (${commits} commits; killed between commits ${outcomes.betweenCommits}×, during a commit ${outcomes.midCommitRolledBack + outcomes.midCommitLanded}× of which ${outcomes.insideWrite} inside the LevelDB write, ${outcomes.midCommitLanded} had landed and ${outcomes.midCommitRolledBack} rolled back whole; ${model.applied + 1} iterations on disk; children ${(childMs / 1000).toFixed(1)} s, checks ${(verifyMs / 1000).toFixed(1)} s)`,
    );
  });
});
