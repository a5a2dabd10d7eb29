import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BinaryTree } from "@bintrie/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomEntries } from "./helpers/random-entries.js";
import { lines, runCli, tempDir } from "./helpers/run-cli.js";
import { entryLines, expectedNodeLines, nodesetCase } from "./helpers/vectors.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

/** Cases of geth-nodesets.json and the group depths checked for each. */
const CASES: readonly [name: string, groupDepths: readonly number[]][] = [
  ["SingleEntry", [5]],
  ["TwoEntriesDiffFirstBit", [1]],
  ["MerkleizeMultipleEntries", [0, 5, 8]],
  ["TwoKeysMatchFirst42Bits", [2]],
  ["LargeNumberOfEntries", [3]],
  ["RoundTripPersistence50", [5]],
  ["MultiStemMixedDepths", [3]],
  ["StreamingGroundtruth128", [5]],
];

describe("build → nodes equals the geth node sets", () => {
  // --threads 2: partitions are built by worker threads (by default only for large inputs).
  const jobs = CASES.flatMap(([name, depths]) =>
    depths.flatMap((g) => [[name, g, 1] as const, [name, g, 2] as const]),
  );
  it.each(jobs)("%s at group depth %i, %i thread(s)", async (name, groupDepth, threads) => {
    const c = nodesetCase(name);
    const file = join(dir, `${name}.jsonl`);
    await writeFile(file, entryLines(c.entries));
    const db = join(dir, `${name}-g${groupDepth}-t${threads}`);
    const build = await runCli([
      "build",
      file,
      "--db",
      db,
      "--group-depth",
      String(groupDepth),
      "--threads",
      String(threads),
      "--json",
    ]);
    expect(build.stderr).toBe("");
    expect(build.code).toBe(0);
    const expected = c.nodesets[String(groupDepth)]!;
    expect(JSON.parse(build.stdout)).toEqual({
      root: c.root,
      entries: c.entries.length,
      nodes: expected.length,
    });
    const nodes = await runCli(["nodes", "--db", db]);
    expect(nodes.code).toBe(0);
    expect(lines(nodes.stdout)).toEqual(expectedNodeLines(expected));
  });
});

function bytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.slice(2), "hex"));
}

/** The node set of the core's commit of these entries (later entries win). */
function coreCommit(entries: readonly { key: string; value: string }[], groupDepth: number) {
  const tree = new BinaryTree({ groupDepth });
  for (const e of entries) tree.put(bytes(e.key), bytes(e.value));
  const set = tree.commit();
  const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`;
  return {
    root: hex(set.root),
    writes: set.writes.map((w) => ({ path: hex(w.path), blob: hex(w.blob) })),
  };
}

describe("build → nodes equals the node set of the core's commit", () => {
  const entries = randomEntries(3000, 7);

  it("one build from a file, unsorted input with repeated keys", async () => {
    const withRepeats = [...entries, { key: entries[5]!.key, value: `0x${"ab".repeat(32)}` }];
    const file = join(dir, "random.jsonl");
    await writeFile(file, entryLines(withRepeats));
    const db = join(dir, "random");
    const expected = coreCommit(withRepeats, 4);
    const build = await runCli(["build", file, "--db", db, "--group-depth", "4", "--json"]);
    expect(build.code).toBe(0);
    expect(JSON.parse(build.stdout)).toEqual({
      root: expected.root,
      entries: withRepeats.length,
      nodes: expected.writes.length,
    });
    const nodes = await runCli(["nodes", "--db", db]);
    expect(lines(nodes.stdout)).toEqual(expectedNodeLines(expected.writes));
  });

  it("two builds into one store (the second adds to the committed tree) from stdin, in small commits", async () => {
    const db = join(dir, "two-builds");
    const first = entries.slice(0, 1700);
    const second = entries.slice(1700);
    const a = await runCli(["build", "-", "--db", db], { input: entryLines(first) });
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(`${coreCommit(first, 5).root}\n`);
    const b = await runCli(["build", "--db", db, "--commit-every", "97", "--json"], {
      input: entryLines(second),
    });
    expect(b.stderr).toBe("");
    expect(b.code).toBe(0);
    const expected = coreCommit(entries, 5);
    expect(JSON.parse(b.stdout).root).toBe(expected.root);
    expect(JSON.parse(b.stdout).entries).toBe(second.length);
    // One process at a time: LevelDB admits one open handle.
    const nodes = await runCli(["nodes", "--db", db]);
    expect(lines(nodes.stdout)).toEqual(expectedNodeLines(expected.writes));
    const root = await runCli(["root", "--db", db]);
    expect(root.stdout).toBe(`${expected.root}\n`);
    const verify = await runCli(["verify", "--db", db, "--strict"]);
    expect(verify.code).toBe(0);
  });

  it("an empty input is exit 2 'no entries' and creates no store; --store memory writes no directory", async () => {
    const db = join(dir, "empty");
    const empty = await runCli(["build", "--db", db, "--json"], { input: "\n\n" });
    expect(empty.code).toBe(2);
    expect(empty.stdout).toBe("");
    expect(empty.stderr).toMatch(/^bintrie build: stdin: no entries .*\n$/);
    expect(existsSync(db)).toBe(false);
    const memory = await runCli(["build", "--store", "memory", "--scheme", "blake3-le"], {
      input: entryLines(entries.slice(0, 10)),
    });
    expect(memory.code).toBe(0);
    const tree = new BinaryTree({ scheme: "blake3-le" });
    for (const e of entries.slice(0, 10)) tree.put(bytes(e.key), bytes(e.value));
    expect(memory.stdout).toBe(`0x${Buffer.from(tree.hash()).toString("hex")}\n`);
  });
});
