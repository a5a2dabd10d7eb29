import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface PackageJson {
  readonly exports: Record<string, string | { readonly types: string; readonly default: string }>;
}

const pkg = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
) as PackageJson;

// The budget: a root barrel of at most 45 runtime exports; what not every user needs
// lives in subpaths. The package imports itself by name here, so this reads the built dist/ with
// the exports map a user's resolver sees.
const ROOT_BUDGET = 45;
const SUBPATHS = [
  "builder",
  "bytes",
  "conformance",
  "embedding",
  "hash",
  "node",
  "proof",
  "sha256",
  "store",
];

describe("@bintrie/core export map", () => {
  it(`the root has at most ${ROOT_BUDGET} runtime exports`, async () => {
    const root = await import("@bintrie/core");
    expect(Object.keys(root).length).toBeLessThanOrEqual(ROOT_BUDGET);
    for (const name of ["BintrieError", "BinaryTree", "openTree", "hexToBytes", "bytesToHex"]) {
      expect(root).toHaveProperty(name);
    }
  });

  it("has no near-duplicate names left at the root", async () => {
    const root = await import("@bintrie/core");
    for (const gone of [
      "proveSync",
      "hashStemSparse",
      "getKeyDeriver",
      "createKeyDeriver",
      "KeyDeriver",
      "STEM_SIZE",
      "createNobleSha256Kernel",
    ]) {
      expect(root).not.toHaveProperty(gone);
    }
  });

  it("declares every subpath with its types, and each one imports", async () => {
    const declared = Object.keys(pkg.exports).filter((k) => k !== "." && k !== "./package.json");
    expect(declared.sort()).toEqual(SUBPATHS.map((s) => `./${s}`));
    for (const subpath of SUBPATHS) {
      const entry = pkg.exports[`./${subpath}`];
      expect(entry).toEqual({
        types: `./dist/${subpath}/index.d.ts`,
        default: `./dist/${subpath}/index.js`,
      });
      const module = (await import(/* @vite-ignore */ `@bintrie/core/${subpath}`)) as Record<
        string,
        unknown
      >;
      expect(Object.keys(module).length).toBeGreaterThan(0);
    }
  });

  it("subpaths hand out the same bindings as the root (one class, not copies)", async () => {
    const root = await import("@bintrie/core");
    const store = await import("@bintrie/core/store");
    const embedding = await import("@bintrie/core/embedding");
    expect(store.StoreError).toBe(root.StoreError);
    expect(store.MemoryStore).toBe(root.MemoryStore);
    expect(embedding.treeKey).toBe(root.treeKey);
    const { prove, verifyProof } = await import("@bintrie/core/proof");
    const tree = new root.BinaryTree();
    const key = new Uint8Array(32).fill(3);
    tree.put(key, new Uint8Array(32).fill(1));
    expect(verifyProof(tree.hash(), [key], await prove(tree, [key]))).toEqual([
      new Uint8Array(32).fill(1),
    ]);
  });
});
