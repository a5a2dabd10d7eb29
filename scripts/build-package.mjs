// Builds the package in the current directory: every entry point of its `exports` map (plus the
// extra entries given as arguments, e.g. a bin's `src/main.ts`) bundled as ESM by esbuild with
// code splitting, so subpath entries share chunks and every class exists once; declarations come
// from tsc next to the bundles. Dependencies stay external (one `BintrieError` across packages).
// Why: a fresh process loaded ~150 files of core's tsc output; loading a few bundles is ~2x faster.
// Usage (from a package directory): node ../../scripts/build-package.mjs [src/extra-entry.ts ...]
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, posix, relative, resolve } from "node:path";
import { build } from "esbuild";

const pkgDir = process.cwd();
const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
const SRC = "src";
const DIST = "dist";

/** `./dist/a/b.js` → `src/a/b.ts` (the tsc layout: dist mirrors src). */
function sourceOf(distPath) {
  const rel = posix.normalize(distPath).replace(/^dist\//, "");
  const ts = join(SRC, rel.replace(/\.js$/, ".ts"));
  if (!existsSync(join(pkgDir, ts)))
    throw new Error(`${pkg.name}: no source ${ts} for ${distPath}`);
  return ts;
}

function exportTargets(node) {
  if (typeof node === "string") return node.endsWith(".js") ? [node] : [];
  return Object.entries(node ?? {}).flatMap(([k, v]) => (k === "types" ? [] : exportTargets(v)));
}

function sourceFiles(dir) {
  return readdirSync(join(pkgDir, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [path] : [];
  });
}

// Files loaded by URL (`new Worker(new URL("./x-worker.js", import.meta.url))`) are entries of
// their own, and the URL must still point at them from wherever the bundler put the caller.
const URL_PATTERN = /new URL\(\s*"(\.\.?\/[^"]+)"\s*,\s*import\.meta\.url\s*\)/g;
const metaUsers = new Map(); // source → URL literals in it
for (const file of sourceFiles(SRC)) {
  const text = readFileSync(join(pkgDir, file), "utf8");
  if (!text.includes("import.meta.url")) continue;
  metaUsers.set(
    file,
    [...text.matchAll(URL_PATTERN)].map((m) => m[1]),
  );
}
/** A URL literal naming a module of this package: `src/node/x-worker.ts` for `./x-worker.js`. */
const urlSource = (file, url) => {
  const ts = join(dirname(file), url.replace(/\.js$/, ".ts"));
  return url.endsWith(".js") && existsSync(join(pkgDir, ts)) ? ts : undefined;
};

const entries = new Set(
  Object.values(pkg.exports ?? {})
    .flatMap(exportTargets)
    .map(sourceOf),
);
for (const extra of process.argv.slice(2)) entries.add(posix.normalize(extra));
for (const [file, urls] of metaUsers) {
  for (const url of urls) {
    const source = urlSource(file, url);
    if (source !== undefined) entries.add(source);
  }
}

rmSync(join(pkgDir, DIST), { recursive: true, force: true });
const result = await build({
  absWorkingDir: pkgDir,
  entryPoints: [...entries],
  outbase: SRC,
  outdir: DIST,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "neutral",
  target: "es2023",
  packages: "external",
  sourcemap: true,
  sourcesContent: false, // src/ ships in the package
  metafile: true,
  logLevel: "warning",
});

// Where tsc would have put a source, and where the bundler did: import.meta.url-relative paths
// are written for the first; rewrite URL literals for the second, refuse anything else.
const distDirOf = (source) => dirname(join(DIST, relative(SRC, source)));
for (const [output, info] of Object.entries(result.metafile.outputs)) {
  if (!output.endsWith(".js")) continue;
  let text = readFileSync(join(pkgDir, output), "utf8");
  let changed = false;
  for (const input of Object.keys(info.inputs)) {
    const urls = metaUsers.get(input);
    if (urls === undefined || distDirOf(input) === dirname(output)) continue;
    const usesOnlyUrls =
      urls.length === readFileSync(join(pkgDir, input), "utf8").split("import.meta.url").length - 1;
    if (!usesOnlyUrls)
      throw new Error(`${input} uses import.meta.url but was bundled into ${output}`);
    for (const url of urls) {
      const target = resolve(pkgDir, distDirOf(input), url);
      let moved = relative(dirname(join(pkgDir, output)), target)
        .split("\\")
        .join("/");
      if (!moved.startsWith(".")) moved = `./${moved}`;
      const from = `new URL("${url}", import.meta.url)`;
      if (!text.includes(from)) throw new Error(`${output}: cannot find ${from} to rewrite`);
      text = text.replaceAll(from, `new URL("${moved}", import.meta.url)`);
      changed = true;
    }
  }
  if (changed) writeFileSync(join(pkgDir, output), text);
}
for (const [file, urls] of metaUsers) {
  for (const url of urls) {
    const target = join(distDirOf(file), url);
    if (urlSource(file, url) !== undefined && !existsSync(join(pkgDir, target)))
      throw new Error(`${file} loads ${url}, but ${target} was not built`);
  }
}

// Declarations (and their maps) from tsc, next to the bundles.
const tsc = createRequire(join(pkgDir, "package.json")).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--emitDeclarationOnly"], {
  cwd: pkgDir,
  stdio: "inherit",
});
