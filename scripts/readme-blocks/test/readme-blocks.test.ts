import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { expectedOutput, outputMismatch } from "../src/expected-output.js";
import { type ReadmeBlock, readmeBlocks, readmeFiles } from "../src/extract.js";
import { type PreparedBlocks, prepareBlocks } from "../src/prepare.js";
import {
  type BlockRun,
  parseShell,
  runInChromium,
  runInNode,
  runInShell,
} from "../src/run-block.js";

// Every fenced ts/js/sh/json block of every README, checked against the built packages (see
// CONTRIBUTING.md, "README code blocks").
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BLOCKS_DIR = fileURLToPath(new URL("../.blocks/", import.meta.url));
const blocks = readmeBlocks(ROOT);

let prepared: PreparedBlocks;
beforeAll(() => {
  prepared = prepareBlocks(blocks, BLOCKS_DIR, ROOT);
  expect(prepared.typeErrors.get("(tsc)")).toBeUndefined();
});

function expectRan(block: ReadmeBlock, run: BlockRun, where: string): void {
  if (run.code !== 0) {
    throw new Error(`${where} exited ${run.code}:\n${run.stderr}\n${run.stdout}`);
  }
  const mismatch = outputMismatch(expectedOutput(block), run.stdout);
  if (mismatch !== undefined) throw new Error(`${where}: ${mismatch}`);
}

function label(block: ReadmeBlock): string {
  return `${block.readme}:${block.line} ${block.language}${[...block.markers].map((m) => ` ${m}`).join("")}`;
}

describe("README code blocks", () => {
  it("finds the READMEs and their blocks", () => {
    expect(readmeFiles(ROOT)).toContain("examples/transition-overlay/README.md");
    for (const readme of readmeFiles(ROOT)) {
      if (readme === "bench/README.md") continue;
      expect(
        blocks.some((b) => b.readme === readme),
        readme,
      ).toBe(true);
    }
  });

  for (const block of blocks) {
    it(label(block), async () => {
      const runs = !block.markers.has("no-run");
      switch (block.language) {
        case "json": {
          expect(() => JSON.parse(block.code)).not.toThrow();
          return;
        }
        case "sh": {
          if (!runs) {
            expectRan(block, await parseShell(block.code), "bash -n");
            return;
          }
          const cwd = block.markers.has("in-repo") ? ROOT : undefined;
          expectRan(block, await runInShell(block.code, prepared.binDir, cwd), "bash");
          return;
        }
        case "ts":
        case "js": {
          const errors = prepared.typeErrors.get(block.id);
          if (errors !== undefined) throw new Error(`tsc (strict):\n${errors.join("\n")}`);
          if (!runs) return;
          // A program that runs promises output: at least one `// → …` line.
          expect(expectedOutput(block).length, "lines marked // → …").toBeGreaterThan(0);
          if (!block.markers.has("browser")) {
            expectRan(block, await runInNode(prepared.compiled(block)), "node");
          }
          if (block.markers.has("browser") || block.markers.has("portable")) {
            expectRan(block, await runInChromium(prepared.source(block)), "chromium");
          }
          return;
        }
      }
    });
  }
});
