import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { BinaryTree, getHasher } from "../src/index.js";
import {
  compileWasmSha256Module,
  createWasmSha256Kernel,
  prepareSha256Kernel,
} from "../src/sha256/index.js";

const nodeSha256 = (m: Uint8Array) => new Uint8Array(createHash("sha256").update(m).digest());

describe("asynchronous wasm compilation (the browser main-thread path)", () => {
  it("a kernel from an asynchronously compiled module is bit-exact", async () => {
    const module = await compileWasmSha256Module();
    expect(module).toBeDefined();
    const kernel = createWasmSha256Kernel({ module: module! })!;
    const src = new Uint8Array(64 * 37).map((_, i) => (i * 31 + 7) & 0xff);
    const out = new Uint8Array(32 * 37);
    kernel.hash64Batch(src, 0, 37, out, 0);
    for (let i = 0; i < 37; i++) {
      expect(out.subarray(i * 32, i * 32 + 32)).toEqual(
        nodeSha256(src.subarray(i * 64, i * 64 + 64)),
      );
    }
  });

  it("prepareSha256Kernel() resolves true and hashers created afterwards still hash correctly", async () => {
    expect(await prepareSha256Kernel()).toBe(true);
    const message = new Uint8Array(32).fill(9);
    const out = new Uint8Array(32);
    getHasher("sha256").hash32Batch(message, 0, 1, out, 0);
    expect(out).toEqual(nodeSha256(message));
    const tree = new BinaryTree();
    tree.put(new Uint8Array(32), new Uint8Array(32).fill(1));
    expect(Buffer.from(tree.hash()).toString("hex")).toBe(
      "aab1060e04cb4f5dc6f697ae93156a95714debbf77d54238766adc5709282b6f",
    );
  });
});
