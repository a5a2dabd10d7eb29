import { spawn } from "node:child_process";
import { join } from "node:path";
import { BinaryTree, openTree } from "@bintrie/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLevelStore } from "../../src/index.js";
import { hex } from "../helpers/bytes.js";
import { tempDirs } from "../helpers/temp-dir.js";
import { buildCrashChild } from "./build-child.js";
import { BATCH_WRITES, batchIndices, UNIVERSE, universeKey, valueAt } from "./crash-workload.js";

const KILLS = Number(process.env.CRASH_KILLS ?? 20);
/** Kill moments are uniform in [0, MAX_KILL_DELAY_MS) after the child reports it is ready. */
const MAX_KILL_DELAY_MS = Number(process.env.CRASH_MAX_DELAY_MS ?? 900);
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
}

/** Runs the child from `first`, kills it with SIGKILL after `delayMs`, returns what it said. */
function runAndKill(location: string, first: number, delayMs: number): Promise<ChildReport> {
  const child = spawn(process.execPath, [childScript, location, String(first), String(SEED)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const report: ChildReport = { committed: new Map(), pending: undefined };
  let buffered = "";
  let stderr = "";
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
        if (kind === "ready") setTimeout(() => child.kill("SIGKILL"), delayMs);
        else if (kind === "pending") report.pending = { iteration: Number(a), root: b! };
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

describe(`crash recovery: ${KILLS} SIGKILLs during ${BATCH_WRITES}-key commits into LevelDB`, () => {
  it("every reopen yields exactly one committed root, all its values and exactly its nodes", async () => {
    const location = join(dirs.make(), "db");
    const model = new Model();
    let verifiedRoot = EMPTY_ROOT;
    const outcomes = { committed: 0, inFlight: 0, none: 0 };
    let commits = 0;

    for (let round = 0; round < KILLS; round++) {
      const first = model.applied + 1;
      const delay = Math.floor(Math.random() * MAX_KILL_DELAY_MS);
      const report = await runAndKill(location, first, delay);
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
        const context = `round ${round} (kill after ${delay} ms, seed ${SEED}): root ${root}, allowed ${[...candidates.keys()]}`;
        expect(candidates.has(root), context).toBe(true);
        const iteration = candidates.get(root)!;
        if (report.pending !== undefined && iteration === report.pending.iteration)
          outcomes.inFlight++;
        else if (report.committed.size > 0) outcomes.committed++;
        else outcomes.none++;

        model.advanceTo(iteration);
        const entries = model.present();

        // A fresh tree of exactly the model's contents has this root and these nodes, byte for
        // byte: nothing committed is missing and no stale node survived.
        const fresh = new BinaryTree();
        for (const { key, value } of entries) fresh.put(key, value);
        const expectedNodes = new Map(fresh.commit().writes.map((w) => [hex(w.path), hex(w.blob)]));
        expect(hex(fresh.hash()), context).toBe(root);
        const storedNodes = new Map<string, string>();
        for await (const [key, blob] of store.entries({
          gte: Uint8Array.of(0x76, 0x41),
          lt: Uint8Array.of(0x76, 0x42),
        })) {
          storedNodes.set(hex(key.subarray(2)), hex(blob));
        }
        expect(storedNodes.size, context).toBe(expectedNodes.size);
        expect(storedNodes, context).toEqual(expectedNodes);

        // Loading every key walks every reachable node, decoding and hash-checking each one.
        const values = await tree.getMany(entries.map((e) => e.key));
        for (let i = 0; i < entries.length; i++) {
          if (hex(values[i]!) !== hex(entries[i]!.value)) {
            expect.fail(`${context}: value of key ${hex(entries[i]!.key)} differs`);
          }
        }
        verifiedRoot = root;
      } finally {
        await store.close();
      }
    }
    console.log(
      `crash test: ${KILLS}/${KILLS} reopens verified (${commits} commits; recovered to the last finished commit ${outcomes.committed}×, to the commit in flight ${outcomes.inFlight}×, killed before any commit ${outcomes.none}×; ${model.applied + 1} iterations on disk)`,
    );
  });
});
