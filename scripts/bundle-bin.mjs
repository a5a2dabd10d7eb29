// Bundles a built command-line entry with everything it imports, dependencies included, into one
// ESM file beside it. Why: a fresh `bintrie-testnet` process spent about half of its 0.4 s start
// resolving and reading the hundreds of files of @ethereumjs/* and their dependencies (ESM
// resolution is per file); from one file the same `t8n` starts in about 0.6 of the time, which
// matters to a filler that runs one process per test.
// The package keeps those dependencies: its library entry imports them, and what the bundle loads
// at run time by `createRequire` (KZG's trusted setup) resolves from the package's node_modules.
// The bundle sits in its entry's directory, so the entry's `new URL("../../x", import.meta.url)`
// paths (package.json, genesis files) still name the same files.
// Usage (from a package directory): node ../../scripts/bundle-bin.mjs dist/cli/main.js dist/cli/x.mjs
import { builtinModules } from "node:module";
import { dirname, resolve } from "node:path";
import { build } from "esbuild";

const [entry, outfile] = process.argv.slice(2);
if (entry === undefined || outfile === undefined) {
  throw new Error("usage: node bundle-bin.mjs ENTRY.js OUT.mjs (both in the same directory)");
}
if (dirname(resolve(entry)) !== dirname(resolve(outfile))) {
  throw new Error(`bundle-bin: ${outfile} must be in the directory of ${entry} (relative URLs)`);
}

const result = await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Every module's top level runs as it does unbundled: no import is dropped on the strength of
  // a package's `sideEffects: false` or a pure annotation.
  ignoreAnnotations: true,
  // Dependencies written as CommonJS call `require`; an ESM file has none of its own.
  banner: {
    js: 'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);',
  },
  metafile: true,
  logLevel: "warning",
});

// Only Node's built-in modules may stay imports: a package left out would be loaded from
// node_modules after all, as a second copy beside the bundled one. (esbuild leaves a package it
// cannot find only where a `require` sits in a try block: an optional one, such as debug's
// supports-color, which stays optional.)
const output = result.metafile.outputs[Object.keys(result.metafile.outputs)[0]];
const external = output.imports.filter(
  (i) => i.external && i.kind !== "require-call" && !isBuiltin(i.path),
);
if (external.length > 0) {
  throw new Error(`bundle-bin: ${outfile} still imports ${external.map((i) => i.path).join(", ")}`);
}

function isBuiltin(path) {
  return path.startsWith("node:") || builtinModules.includes(path);
}
