import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ReadmeBlock } from "./extract.js";

/** The blocks written to disk, type-checked once, and compiled for Node. */
export interface PreparedBlocks {
  /** Type errors per block id (none: absent). */
  readonly typeErrors: ReadonlyMap<string, readonly string[]>;
  /** A directory with `bintrie` and `bintrie-testnet` (the built bins), for PATH. */
  readonly binDir: string;
  /** The TypeScript source of a ts block. */
  source(block: ReadmeBlock): string;
  /** The compiled JavaScript of a ts block (or the source of a js block), to run in Node. */
  compiled(block: ReadmeBlock): string;
}

/** Node blocks get Node's types; `browser`/`portable` blocks only the DOM's (no Node-only API). */
function flavour(block: ReadmeBlock): "node" | "dom" {
  return block.markers.has("browser") || block.markers.has("portable") ? "dom" : "node";
}

function tsconfig(flavour: "node" | "dom"): object {
  return {
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: flavour === "dom" ? ["ES2023", "DOM", "DOM.Iterable"] : ["ES2023"],
      types: flavour === "dom" ? [] : ["node"],
      strict: true,
      skipLibCheck: true,
      rootDir: flavour,
      outDir: `out/${flavour}`,
      noEmitOnError: false,
      pretty: false,
    },
    include: [`${flavour}/*.ts`],
  };
}

/**
 * Writes every ts and js block under `dir` (inside this package, so `@bintrie/*` resolve to the
 * workspace packages and their built dist/), runs tsc (strict) once per flavour and records
 * each block's errors.
 */
export function prepareBlocks(
  blocks: readonly ReadmeBlock[],
  dir: string,
  repoRoot: string,
): PreparedBlocks {
  rmSync(dir, { recursive: true, force: true });
  for (const sub of ["node", "dom", "bin", "js"]) mkdirSync(join(dir, sub), { recursive: true });
  const typeErrors = new Map<string, string[]>();
  const source = (block: ReadmeBlock) => join(dir, flavour(block), `${block.id}.ts`);
  for (const block of blocks) {
    if (block.language === "ts") writeFileSync(source(block), `${block.code}export {};\n`);
    if (block.language === "js") writeFileSync(join(dir, "js", `${block.id}.mjs`), block.code);
  }
  const tsc = join(repoRoot, "node_modules/typescript/bin/tsc");
  for (const kind of ["node", "dom"] as const) {
    if (!blocks.some((b) => b.language === "ts" && flavour(b) === kind)) continue;
    const config = join(dir, `tsconfig.${kind}.json`);
    writeFileSync(config, JSON.stringify(tsconfig(kind), null, 2));
    const result = spawnSync(process.execPath, [tsc, "-p", config], { encoding: "utf8" });
    for (const line of `${result.stdout}${result.stderr}`.split("\n")) {
      const match = /^(?:.*[\\/])?([^\\/(]+)\.ts\((\d+),(\d+)\): (error TS\d+: .*)$/.exec(line);
      if (match === null) {
        if (/error TS/.test(line))
          typeErrors.set("(tsc)", [...(typeErrors.get("(tsc)") ?? []), line]);
        continue;
      }
      const [, id, row, column, message] = match;
      typeErrors.set(id!, [...(typeErrors.get(id!) ?? []), `line ${row}:${column} ${message}`]);
    }
  }
  const binDir = join(dir, "bin");
  for (const [name, main] of [
    ["bintrie", "apps/cli/dist/main.js"],
    ["bintrie-testnet", "apps/testnet/dist/cli/bintrie-testnet.mjs"],
  ] as const) {
    const shim = join(binDir, name);
    writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${join(repoRoot, main)}" "$@"\n`);
    chmodSync(shim, 0o755);
  }
  return {
    typeErrors,
    binDir,
    source,
    compiled: (block) =>
      block.language === "js"
        ? join(dir, "js", `${block.id}.mjs`)
        : join(dir, "out", flavour(block), `${block.id}.js`),
  };
}
