// Release check: pack every public package, install each tarball ALONE into a fresh temp project
// with npm (real dependencies from the registry, @bintrie/* dependencies as tarballs), then
// type-check and run a usage script in Node, and bundle it for browsers where the package is
// browser-capable. Prints a table and a JSON document with installed size and dependency count.
// Usage: node scripts/pack-check/run.mjs [--only codec,core]
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const here = fileURLToPath(new URL(".", import.meta.url));
const tsc = join(root, "node_modules/typescript/bin/tsc");
// esbuild is a root devDependency (the packages' build uses it too).
const esbuild = join(root, "node_modules/esbuild/bin/esbuild");

const PACKAGES = [
  { id: "codec", dir: "packages/codec", browser: true },
  { id: "core", dir: "packages/core", browser: true },
  { id: "store-level", dir: "packages/store-level", browser: true },
  { id: "store-idb", dir: "packages/store-idb", browser: true, extraDev: ["fake-indexeddb@6.2.8"] },
  { id: "transition", dir: "packages/transition", browser: false },
  { id: "cli", dir: "apps/cli", browser: false, bin: "bintrie" },
  // ethereumjs's .d.ts import `debug` without declaring its types: consumers that type-check
  // libraries (skipLibCheck: false) need @types/debug, as the testnet README says.
  {
    id: "testnet",
    dir: "apps/testnet",
    browser: false,
    bin: "bintrie-testnet",
    extraDev: ["@types/debug"],
  },
];

const onlyArg = process.argv.indexOf("--only");
const only = onlyArg > 0 ? new Set(process.argv[onlyArg + 1].split(",")) : undefined;
const selected = PACKAGES.filter((p) => (only ? only.has(p.id) : true));

const run = (cmd, args, cwd, extra = {}) =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...extra });

const work = mkdtempSync(join(tmpdir(), "bintrie-pack-"));
const packs = join(work, "packs");
mkdirSync(packs);

// Manifests of every public package; tarballs are packed on first need (workspace:* becomes the
// real version inside the tarball).
const tarballs = new Map();
const manifests = new Map();
for (const p of PACKAGES) {
  const manifest = JSON.parse(readFileSync(join(root, p.dir, "package.json"), "utf8"));
  manifests.set(manifest.name, { ...p, manifest });
}

function tarballOf(name) {
  if (!tarballs.has(name)) {
    const before = new Set(readdirSync(packs));
    run("pnpm", ["pack", "--pack-destination", packs], join(root, manifests.get(name).dir));
    const created = readdirSync(packs).find((f) => !before.has(f));
    if (!created) throw new Error(`pnpm pack produced no tarball for ${name}`);
    tarballs.set(name, join(packs, created));
  }
  return tarballs.get(name);
}

/** The @bintrie/* packages a package needs at run time, transitively. */
function bintrieClosure(name, seen = new Set()) {
  if (seen.has(name)) return seen;
  seen.add(name);
  const deps = manifests.get(name)?.manifest.dependencies ?? {};
  for (const dep of Object.keys(deps)) if (dep.startsWith("@bintrie/")) bintrieClosure(dep, seen);
  return seen;
}

function dirSize(path) {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += dirSize(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

const results = [];
let failed = 0;
for (const p of selected) {
  const name = [...manifests.entries()].find(([, m]) => m.id === p.id)[0];
  const project = join(work, p.id);
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: `try-${p.id}`, private: true, type: "module" }),
  );
  const result = { package: name, node: false, types: false, browser: p.browser ? false : null };
  const started = performance.now();
  try {
    const needed = [...bintrieClosure(name)].map(tarballOf);
    run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...needed], project);
    if (p.extraDev)
      run(
        "npm",
        ["install", "--no-audit", "--no-fund", "--loglevel=error", "-D", ...p.extraDev],
        project,
      );
    const lock = JSON.parse(readFileSync(join(project, "node_modules/.package-lock.json"), "utf8"));
    result.dependencies =
      Object.keys(lock.packages).filter((k) => k.startsWith("node_modules/")).length - 1;
    result.installed_bytes = dirSize(join(project, "node_modules"));
    result.package_bytes = dirSize(join(project, "node_modules", ...name.split("/")));
    cpSync(join(here, "usage", `${p.id}.ts`), join(project, "usage.ts"));
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2023",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ["node"],
          typeRoots: [join(root, "node_modules/@types")],
        },
        files: ["usage.ts"],
      }),
    );
    run(process.execPath, [tsc, "-p", "tsconfig.json"], project);
    result.types = true;
    run(
      esbuild,
      ["usage.ts", "--format=esm", "--platform=node", "--outfile=usage.mjs", "--log-level=error"],
      project,
    );
    result.output = run(process.execPath, ["usage.mjs"], project).trim();
    result.node = true;
    if (p.browser) {
      const browserUsage = join(here, "usage", `${p.id}.browser.ts`);
      if (existsSync(browserUsage)) cpSync(browserUsage, join(project, "usage.ts"));
      run(
        esbuild,
        [
          "usage.ts",
          "--bundle",
          "--format=esm",
          "--platform=browser",
          "--outfile=bundle.js",
          "--log-level=error",
        ],
        project,
      );
      result.browser = true;
      result.browser_bundle_bytes = statSync(join(project, "bundle.js")).size;
    }
    if (p.bin)
      result.bin = run(join(project, "node_modules/.bin", p.bin), ["--version"], project).trim();
  } catch (error) {
    failed++;
    result.error = `${error.message}\n${error.stdout ?? ""}${error.stderr ?? ""}`.slice(0, 3000);
  }
  result.seconds = (performance.now() - started) / 1000;
  results.push(result);
  process.stderr.write(
    `pack-check ${name}: ${result.error ? "FAILED" : "ok"} (${result.seconds.toFixed(1)} s)\n`,
  );
}
rmSync(work, { recursive: true, force: true });

const kib = (n) => (n === undefined ? "-" : `${(n / 1024).toFixed(0)} KiB`);
console.log("| package | node | types | browser | installed | own | deps |");
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const r of results) {
  const mark = (v) => (v === null ? "n/a" : v ? "ok" : "FAIL");
  console.log(
    `| ${r.package} | ${mark(r.node)} | ${mark(r.types)} | ${mark(r.browser)} | ${kib(r.installed_bytes)} | ${kib(r.package_bytes)} | ${r.dependencies ?? "-"} |`,
  );
}
console.log(JSON.stringify({ packCheck: results }, null, 2));
console.log(`pack-check: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
