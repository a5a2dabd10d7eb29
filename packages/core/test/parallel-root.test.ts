// parallelRoot runs its partitions in worker threads, which load the built worker script:
// this test imports the package's dist (core's test task depends on its build).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { BinaryTree } from "../dist/index.js";
import { closeParallelWorkers, parallelRoot } from "../dist/node/index.js";
import { hex } from "./helpers/shared.js";

afterAll(() => closeParallelWorkers());

/** The shared workload: key_i = sha256(be64(i)), value_i = sha256(key_i), as flat buffers. */
function sharedWorkload(n: number): { keys: Uint8Array; values: Uint8Array } {
  const keys = new Uint8Array(n * 32);
  const values = new Uint8Array(n * 32);
  const index = Buffer.alloc(8);
  for (let i = 0; i < n; i++) {
    index.writeBigUInt64BE(BigInt(i));
    const key = createHash("sha256").update(index).digest();
    keys.set(key, i * 32);
    values.set(createHash("sha256").update(key).digest(), i * 32);
  }
  return { keys, values };
}

function singleThreadRoot(keys: Uint8Array, values: Uint8Array): string {
  const tree = new BinaryTree();
  for (let i = 0; i < keys.length / 32; i++)
    tree.put(keys.subarray(i * 32, i * 32 + 32), values.subarray(i * 32, i * 32 + 32));
  return hex(tree.hash());
}

describe("parallelRoot", () => {
  // go-ethereum's root of the 10,000-key shared workload: `geth-bintrie speed 10000` (go-ethereum
  // 02b73d4ea7181464175e0a6cbecc0a3a2655a562, tools/geth-bintrie of the ground-truth folder), pinned here.
  const GETH_ROOT_10K = "0x18e08444214b1aeecfbb72f3a60da2e373f8efcb2d457287233b6315523d5333";

  it("reaches geth's root of the 10k shared workload at 1 and 2 threads", async () => {
    const { keys, values } = sharedWorkload(10_000);
    for (const threads of [1, 2]) {
      expect(hex(await parallelRoot(keys, values, { threads }))).toBe(GETH_ROOT_10K);
    }
  });

  const tool = fileURLToPath(
    new URL("../../../../shared/tools/geth-bintrie/geth-bintrie", import.meta.url),
  );
  it.runIf(existsSync(tool))("matches geth's speed root at 3,000 keys (run live)", async () => {
    const geth = JSON.parse(execFileSync(tool, ["speed", "3000"], { encoding: "utf8" }));
    const { keys, values } = sharedWorkload(3000);
    expect(hex(await parallelRoot(keys, values, { threads: 2, partitionBits: 5 }))).toBe(
      `0x${geth.root}`,
    );
  });

  it("equals the single-threaded tree for any key set, thread count and partition depth", async () => {
    // Keys from a few prefixes so partitions are empty, hold one stem, or many; some keys share
    // a stem, some repeat (the later value wins).
    const prefixes = [0x00, 0x01, 0x80, 0xff];
    const key = fc
      .tuple(
        fc.constantFrom(...prefixes),
        fc.uint8Array({ minLength: 31, maxLength: 31 }),
        fc.boolean(),
      )
      .map(([top, rest, sameStem]) => {
        const k = new Uint8Array(32);
        k[0] = top;
        k.set(rest.subarray(0, 30), 1);
        k[31] = sameStem ? 0 : rest[30]!;
        return k;
      });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(key, fc.uint8Array({ minLength: 32, maxLength: 32 })), {
          maxLength: 200,
        }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 12 }),
        async (entries, threads, partitionBits) => {
          const keys = new Uint8Array(entries.length * 32);
          const values = new Uint8Array(entries.length * 32);
          entries.forEach(([k, v], i) => {
            keys.set(k, i * 32);
            values.set(v, i * 32);
          });
          const root = await parallelRoot(keys, values, { threads, partitionBits });
          expect(hex(root)).toBe(singleThreadRoot(keys, values));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("rejects bad input with TreeError codes", async () => {
    await expect(parallelRoot(new Uint8Array(31), new Uint8Array(31))).rejects.toMatchObject({
      code: "INVALID_KEY",
    });
    await expect(parallelRoot(new Uint8Array(32), new Uint8Array(0))).rejects.toMatchObject({
      code: "INVALID_VALUE",
    });
    await expect(
      parallelRoot(new Uint8Array(32), new Uint8Array(32), { threads: 0 }),
    ).rejects.toMatchObject({ code: "INVALID_OPTION" });
    await expect(
      parallelRoot(new Uint8Array(32), new Uint8Array(32), { partitionBits: 17 }),
    ).rejects.toMatchObject({ code: "INVALID_OPTION" });
  });
});
