// A large input file is read in two halves, the second decoded on a worker thread up to its
// first line of a form other than the canonical one; the main thread reads on from there. The
// result must be what one reader of the whole file gets: the same entries in the same order
// (later entries win), the same errors naming the same line numbers.
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BinaryTree } from "@bintrie/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesOf, hexOf, randomEntries } from "./helpers/random-entries.js";
import { runCli, tempDir } from "./helpers/run-cli.js";

// 60 000 canonical lines are 9.2 MB: past the 8 MiB from which a build reads in halves.
const COUNT = 60_000;
const entries = randomEntries(COUNT, 31);
const canonical = (e: { key: string; value: string }) => JSON.stringify(e);

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(async () => {
  await cleanup();
});

/** The root of the core's tree holding these entries, put one by one (later entries win). */
function coreRoot(list: readonly { key: string; value: string }[]): string {
  const tree = new BinaryTree();
  for (const e of list) tree.put(bytesOf(e.key), bytesOf(e.value));
  return hexOf(tree.hash());
}

async function build(name: string, text: string) {
  const file = join(dir, `${name}.jsonl`);
  await writeFile(file, text);
  const db = join(dir, name);
  const result = await runCli(["build", file, "--db", db, "--json", "--threads", "2"]);
  return { ...result, db };
}

describe("build reads a large file in two halves", () => {
  it("all canonical, keys repeated across the halves: the later entry wins", async () => {
    const list = [
      ...entries,
      { key: entries[3]!.key, value: `0x${"ab".repeat(32)}` },
      { key: entries[COUNT - 2]!.key, value: `0x${"cd".repeat(32)}` },
      { key: entries[3]!.key, value: `0x${"ef".repeat(32)}` },
    ];
    // No newline after the last line.
    const result = await build("canonical", list.map(canonical).join("\n"));
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toMatchObject({ root: coreRoot(list), entries: list.length });
  });

  it("other forms in the second half (spaces, CRLF, blank lines, fields swapped, upper-case digits)", async () => {
    const lines = entries.map(canonical);
    const at = [COUNT / 2 + 10, COUNT / 2 + 11, COUNT - 100, COUNT - 1];
    const e = (i: number) => entries[i]!;
    lines[at[0]!] = `{"key": "${e(at[0]!).key}", "value": "${e(at[0]!).value}"}\r`;
    lines[at[1]!] =
      `\n  \n{"value":"${e(at[1]!).value}","key":"${e(at[1]!).key.toUpperCase().replace("0X", "0x")}"}`;
    lines[at[2]!] = ` ${canonical(e(at[2]!))}`;
    lines[at[3]!] = `${canonical(e(at[3]!))}\r`;
    const result = await build("mixed", `${lines.join("\n")}\n`);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toMatchObject({ root: coreRoot(entries), entries: COUNT });
  });

  it.each([
    ["the second half", COUNT - 7, undefined],
    ["the first half", 1234, undefined],
    ["the second half, after a line of another form", COUNT / 2 + 500, COUNT / 2 + 20],
  ])(
    "a bad line in %s is named by its line number, and nothing is written",
    async (_, bad, other) => {
      const lines = entries.map(canonical);
      if (other !== undefined) lines[other] = ` ${lines[other]}`;
      lines[bad] = `{"key":"${entries[bad]!.key}","value":"0x12"}`;
      const result = await build(`bad-${bad}`, `${lines.join("\n")}\n`);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`line ${bad + 1}: "value" must be 32 bytes of hex`));
      expect(existsSync(result.db)).toBe(false);
    },
  );
});
