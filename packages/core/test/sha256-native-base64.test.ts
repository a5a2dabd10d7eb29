// Where the runtime has Uint8Array.fromBase64 (ES2026), the wasm kernel's module bytes come from
// it instead of the JS decoder. Node 20 has none: a stand-in built on Buffer checks the wiring.
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";

const nodeSha256 = (m: Uint8Array) => new Uint8Array(createHash("sha256").update(m).digest());
const holder = Uint8Array as { fromBase64?: (s: string) => Uint8Array };

afterEach(() => {
  delete holder.fromBase64;
  vi.resetModules();
});

describe("wasm module bytes from a native base64 decoder", () => {
  it("decodes the module once with it and the kernel is bit-exact", async () => {
    expect(holder.fromBase64).toBeUndefined();
    const calls: string[] = [];
    holder.fromBase64 = (s) => {
      calls.push(s);
      return new Uint8Array(Buffer.from(s, "base64"));
    };
    vi.resetModules();
    const { createWasmSha256Kernel } = await import("../src/sha256/wasm-kernel.js");
    const { SHA256_WASM_BASE64 } = await import("../src/sha256/wasm-module.generated.js");
    const kernel = createWasmSha256Kernel();
    expect(kernel).toBeDefined();
    expect(calls).toEqual([SHA256_WASM_BASE64]);
    const src = new Uint8Array(64 * 9).map((_, i) => (i * 13 + 5) & 0xff);
    const out = new Uint8Array(32 * 9);
    kernel!.hash64Batch(src, 0, 9, out, 0);
    for (let i = 0; i < 9; i++) {
      expect(out.subarray(i * 32, i * 32 + 32)).toEqual(
        nodeSha256(src.subarray(i * 64, i * 64 + 64)),
      );
    }
  });

  it("a broken native decode yields no wasm kernel (callers fall back to JS), never a wrong one", async () => {
    holder.fromBase64 = () => new Uint8Array(16);
    vi.resetModules();
    const { createWasmSha256Kernel } = await import("../src/sha256/wasm-kernel.js");
    expect(createWasmSha256Kernel()).toBeUndefined();
  });
});
