import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The languages whose blocks are checked; others (text, diagrams) are prose. */
export type BlockLanguage = "ts" | "js" | "sh" | "json";

/**
 * Markers after the language in the fence's info string (` ```sh no-run `):
 * - `no-run`: not executed (install lines, commands that start servers or the test suite
 *   itself); shell blocks are still parsed with `bash -n`, other blocks type-checked.
 * - `browser`: a browser program: type-checked without Node's types, run in Chromium.
 * - `portable`: type-checked without Node's types (no Node-only API), run in Node and Chromium.
 * - `in-repo` (sh): run at the repository root instead of a fresh temporary directory, for
 *   commands of a checkout (`pnpm --filter …`); such a block writes only to temporary
 *   directories.
 */
export const BLOCK_MARKERS = ["no-run", "browser", "portable", "in-repo"] as const;
export type BlockMarker = (typeof BLOCK_MARKERS)[number];

export interface ReadmeBlock {
  /** Repository-relative README path. */
  readonly readme: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly language: BlockLanguage;
  readonly markers: ReadonlySet<BlockMarker>;
  readonly code: string;
  /** File-name-safe identifier, unique in the repository. */
  readonly id: string;
}

const LANGUAGES: Record<string, BlockLanguage> = {
  ts: "ts",
  typescript: "ts",
  js: "js",
  javascript: "js",
  sh: "sh",
  bash: "sh",
  shell: "sh",
  json: "json",
};

/** Every README of the repository: the root, packages/*, apps/*, examples/*, bench. */
export function readmeFiles(root: string): string[] {
  const out = ["README.md"];
  for (const group of ["packages", "apps", "examples"]) {
    for (const name of readdirSync(join(root, group)).sort()) {
      if (existsSync(join(root, group, name, "README.md"))) out.push(`${group}/${name}/README.md`);
    }
  }
  if (existsSync(join(root, "bench/README.md"))) out.push("bench/README.md");
  return out;
}

/** The checked fenced blocks of one README; an unknown marker is an error, not a skip. */
export function extractBlocks(markdown: string, readme: string): ReadmeBlock[] {
  const lines = markdown.split("\n");
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$/.exec(lines[i]!);
    if (open === null) continue;
    const [, indent, fence, info, rest] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim().startsWith(fence!) && line.trim().replace(/[`~]/g, "") === "") break;
      body.push(line.startsWith(indent!) ? line.slice(indent!.length) : line);
    }
    const language = LANGUAGES[info!.toLowerCase()];
    if (language !== undefined) {
      const markers = new Set<BlockMarker>();
      for (const word of rest!.split(/\s+/).filter((w) => w !== "")) {
        if (!(BLOCK_MARKERS as readonly string[]).includes(word)) {
          throw new Error(`${readme}:${i + 1}: unknown code block marker ${JSON.stringify(word)}`);
        }
        markers.add(word as BlockMarker);
      }
      const id = `${readme.replace(/\/?README\.md$/, "").replace(/[^A-Za-z0-9]+/g, "-") || "root"}-L${i + 1}`;
      blocks.push({ readme, line: i + 1, language, markers, code: `${body.join("\n")}\n`, id });
    }
    i = j;
  }
  return blocks;
}

export function readmeBlocks(root: string): ReadmeBlock[] {
  return readmeFiles(root).flatMap((readme) =>
    extractBlocks(readFileSync(join(root, readme), "utf8"), readme),
  );
}
