import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/**
 * Bundles the TypeScript crash child (with this package's src) into an ES module Node can run.
 * It lands under the package's node_modules so its bare imports (level, @bintrie/core) resolve.
 */
export async function buildCrashChild(): Promise<string> {
  const outDir = fileURLToPath(new URL("../../node_modules/.cache/crash-test/", import.meta.url));
  mkdirSync(outDir, { recursive: true });
  const outfile = `${outDir}crash-child.mjs`;
  await build({
    entryPoints: [fileURLToPath(new URL("./crash-child.ts", import.meta.url))],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outfile,
    logLevel: "silent",
  });
  return outfile;
}
