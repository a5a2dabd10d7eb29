import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lines, runCli, tempDir } from "./helpers/run-cli.js";
import { tamperNode } from "./helpers/tamper.js";
import { entryLines, expectedNodeLines, nodesetCase } from "./helpers/vectors.js";

const CASE = nodesetCase("LargeNumberOfEntries"); // 256 entries, stems and groups at many depths
const G = 5;
const nodeset = CASE.nodesets[String(G)]!;
const stem = nodeset.find((n) => n.blob.startsWith("0x01") && n.path !== "0x")!;
const group = nodeset.find((n) => n.blob.startsWith("0x02") && n.path !== "0x")!;

let dir: string;
let cleanup: () => Promise<void>;
let input: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  input = join(dir, "entries.jsonl");
  await writeFile(input, entryLines(CASE.entries));
});
afterAll(() => cleanup());

/** A fresh database holding the case's tree. */
async function built(name: string): Promise<string> {
  const db = join(dir, name);
  const result = await runCli(["build", input, "--db", db, "--group-depth", String(G)]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toBe(`${CASE.root}\n`);
  return db;
}

describe("verify", () => {
  it("passes on an intact store and reports node counts", async () => {
    const db = await built("intact");
    const result = await runCli(["verify", "--db", db, "--json"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const stems = nodeset.filter((n) => n.blob.startsWith("0x01")).length;
    expect(JSON.parse(result.stdout)).toEqual({
      ok: true,
      root: CASE.root,
      scheme: "sha256-be",
      groupDepth: G,
      nodes: { total: nodeset.length, stem: stems, group: nodeset.length - stems, internal: 0 },
      values: CASE.entries.length,
      bytes: nodeset.reduce((sum, n) => sum + (n.blob.length - 2) / 2, 0),
      garbage: 0,
      problems: [],
    });
  });

  it("verifies trees of other schemes and of flat internal nodes (group depth 0)", async () => {
    const db = join(dir, "blake3-flat");
    const built = await runCli([
      "build",
      input,
      "--db",
      db,
      "--scheme",
      "blake3-be",
      "--group-depth",
      "0",
    ]);
    expect(built.code).toBe(0);
    const result = await runCli(["verify", "--db", db, "--strict", "--json"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      ok: true,
      root: built.stdout.trim(),
      scheme: "blake3-be",
      groupDepth: 0,
    });
    // 256 stems in a binary tree without extension nodes: 255 internal nodes above them.
    expect(report.nodes).toEqual({ total: 511, stem: 256, group: 0, internal: 255 });
  });

  it("detects a tampered stem value: exit 1, naming the path", async () => {
    const db = await built("tampered-stem");
    await tamperNode(db, stem.path, (blob) => {
      const changed = blob!.slice();
      changed[changed.length - 1]! ^= 1;
      return changed;
    });
    const result = await runCli(["verify", "--db", db]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("status    FAILED");
    const problems = lines(result.stderr);
    expect(problems[0]).toMatch(
      new RegExp(
        `^bintrie verify: HASH_MISMATCH at path ${stem.path} \\(bits [01]+\\): node hashes to 0x[0-9a-f]{64}, but its parent expects ${stem.hash}$`,
      ),
    );
    expect(problems.at(-1)).toBe(
      "bintrie verify: verification failed: 1 reachable node is missing, undecodable or wrong",
    );
  });

  it("detects a missing group, an undecodable blob, and a misplaced node", async () => {
    const db = await built("broken");
    await tamperNode(db, group.path, () => undefined);
    const missing = await runCli(["verify", "--db", db, "--json"]);
    expect(missing.code).toBe(1);
    const report = JSON.parse(missing.stdout);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      expect.objectContaining({ code: "MISSING_NODE", path: group.path }),
    ]);
    await tamperNode(db, group.path, () => Uint8Array.of(7, 1, 2));
    const undecodable = await runCli(["verify", "--db", db]);
    expect(undecodable.code).toBe(1);
    expect(undecodable.stderr).toContain(`UNDECODABLE_NODE at path ${group.path}`);
    // A stem blob copied to another stem's path: its stem does not match that path.
    const other = nodeset.filter((n) => n.blob.startsWith("0x01") && n.path !== stem.path)[0]!;
    await tamperNode(db, group.path, () => Buffer.from(group.blob.slice(2), "hex"));
    await tamperNode(db, stem.path, () => Buffer.from(other.blob.slice(2), "hex"));
    const misplaced = await runCli(["verify", "--db", db]);
    expect(misplaced.code).toBe(1);
    expect(misplaced.stderr).toContain(`MISPLACED_NODE at path ${stem.path}`);
  });

  it("reports unreachable nodes as garbage: a warning, an error with --strict", async () => {
    const db = await built("garbage");
    await tamperNode(db, "0x1234560f", () => Buffer.from(stem.blob.slice(2), "hex"));
    const lenient = await runCli(["verify", "--db", db]);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toContain("garbage   1 stored nodes not reachable from the root");
    expect(lenient.stderr).toMatch(/^bintrie verify: warning: 1 stored nodes are not reachable/);
    const strict = await runCli(["verify", "--db", db, "--strict"]);
    expect(strict.code).toBe(1);
    expect(lines(strict.stderr).at(-1)).toBe(
      "bintrie verify: verification failed (--strict): 1 unreachable stored nodes",
    );
  });
});

describe("inspect and stats", () => {
  it("inspect decodes the root group, a stem (by path key and by bits) and reports absent paths", async () => {
    const db = await built("inspect");
    const root = JSON.parse((await runCli(["inspect", "--db", db, "--json"])).stdout);
    expect(root).toMatchObject({
      path: "0x",
      depth: 0,
      kind: "group",
      hash: CASE.root,
      groupDepth: G,
    });
    expect(root.entries.length).toBe(root.entryCount);
    // Every entry's child path is a stored node.
    const paths = new Set(nodeset.map((n) => n.path));
    for (const entry of root.entries) expect(paths.has(entry.path)).toBe(true);

    const byKey = await runCli(["inspect", "--db", db, stem.path]);
    expect(byKey.code).toBe(0);
    const decoded = JSON.parse(byKey.stdout);
    expect(decoded).toMatchObject({ path: stem.path, kind: "stem", hash: stem.hash });
    const blob = Buffer.from(stem.blob.slice(2), "hex");
    expect(decoded.stem).toBe(`0x${blob.subarray(1, 32).toString("hex")}`);
    expect(decoded.values[0].value).toBe(`0x${blob.subarray(64, 96).toString("hex")}`);
    const byBits = await runCli(["inspect", "--db", db, decoded.bits]);
    expect(JSON.parse(byBits.stdout)).toEqual(decoded);

    const absent = await runCli(["inspect", "--db", db, "0x0004"]);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toBe("bintrie inspect: no node stored at path 0x0004 (bits 0000)\n");
    const bad = await runCli(["inspect", "--db", db, "0x0009"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^bintrie inspect: PATH 0x0009 is not a path key/);
  });

  it("stats counts every stored node per type and depth", async () => {
    const db = await built("stats");
    const result = await runCli(["stats", "--db", db, "--json"]);
    expect(result.code).toBe(0);
    const stats = JSON.parse(result.stdout);
    const stems = nodeset.filter((n) => n.blob.startsWith("0x01"));
    expect(stats.nodes).toEqual({
      total: nodeset.length,
      stem: stems.length,
      group: nodeset.length - stems.length,
      internal: 0,
      undecodable: 0,
    });
    expect(stats.values).toBe(CASE.entries.length);
    const depthOf = (path: string) => (path === "0x" ? 0 : Number.parseInt(path.slice(-2), 16));
    const histogram: Record<string, number> = {};
    for (const s of stems) histogram[depthOf(s.path)] = (histogram[depthOf(s.path)] ?? 0) + 1;
    expect(stats.depths.stem).toEqual(histogram);
    expect(stats.bytes.blobs).toBe(nodeset.reduce((sum, n) => sum + (n.blob.length - 2) / 2, 0));
    const text = await runCli(["stats", "--db", db]);
    expect(text.stdout).toContain(`nodes     ${nodeset.length} stored: ${stems.length} stems`);
  });

  it("nodes lists the same set (a check that the tamper-free store is the geth node set)", async () => {
    const db = await built("nodes");
    expect(lines((await runCli(["nodes", "--db", db])).stdout)).toEqual(expectedNodeLines(nodeset));
  });
});
