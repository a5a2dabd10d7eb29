// The built dist/ (esbuild bundles with shared chunks, tsc declarations): every file a module
// loads by URL or import is there, every exports-map entry has its bundle, map and types, and
// the error family is one class across packages.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const pkgDir = fileURLToPath(new URL("..", import.meta.url));
const dist = join(pkgDir, "dist");

function files(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path, suffix);
    return e.name.endsWith(suffix) ? [path] : [];
  });
}

const bundles = files(dist, ".js");

describe("core's bundled dist", () => {
  it("every relative import and every URL a module resolves against import.meta.url exists", () => {
    let urls = 0;
    let imports = 0;
    for (const file of bundles) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)) {
        urls++;
        expect(existsSync(resolve(dirname(file), m[1]!)), `${file}: ${m[1]}`).toBe(true);
      }
      for (const m of text.matchAll(/^(?:import|export)\s[^"]*?"(\.\.?\/[^"]+)"/gm)) {
        imports++;
        expect(existsSync(resolve(dirname(file), m[1]!)), `${file}: ${m[1]}`).toBe(true);
      }
    }
    // The two worker scripts of @bintrie/core/node, and the chunks the entries share.
    expect(urls).toBeGreaterThanOrEqual(2);
    expect(imports).toBeGreaterThan(10);
  });

  it("every worker a source file starts by URL has its own built script", () => {
    const sources = files(join(pkgDir, "src"), ".ts");
    let workers = 0;
    for (const source of sources) {
      const text = readFileSync(source, "utf8");
      // A worker script is named by a module-relative URL literal, handed to `new Worker` directly
      // or through JobThread.
      for (const m of text.matchAll(/new URL\(\s*"(\.\/[^"]+\.js)",\s*import\.meta\.url\s*\)/g)) {
        workers++;
        const built = join(dist, dirname(source).slice(join(pkgDir, "src").length), m[1]!);
        expect(existsSync(built), built).toBe(true);
      }
    }
    expect(workers).toBeGreaterThanOrEqual(2);
  });

  it("every exports-map entry has its bundle, source map and declarations", () => {
    const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as {
      exports: Record<string, string | { types: string; default: string }>;
    };
    for (const [key, entry] of Object.entries(pkg.exports)) {
      if (typeof entry === "string") continue;
      expect(existsSync(join(pkgDir, entry.default)), key).toBe(true);
      expect(existsSync(join(pkgDir, `${entry.default}.map`)), key).toBe(true);
      expect(existsSync(join(pkgDir, entry.types)), key).toBe(true);
    }
  });

  it("errors are one class family across packages and entries", async () => {
    const codec = await import("@bintrie/codec");
    const core = await import("@bintrie/core");
    const store = await import("@bintrie/core/store");
    expect(core.BintrieError).toBe(codec.BintrieError);
    // A store from the /store entry, its error class from the root: the same class.
    const error = await Promise.resolve()
      .then(() => new store.MemoryStore().get("not bytes" as never))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(core.StoreError);
    expect(error).toBeInstanceOf(codec.BintrieError);
  });
});
