import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  generateJsKernelSource,
  JS_OUTPUT_PATH,
  WASM_OUTPUT_PATH,
  wasmModuleSource,
} from "../scripts/gen-sha256.mjs";
import { buildSha256WasmModule, simdProbeModule } from "../src/sha256/wasm-gen.js";
import { SIMD_PROBE } from "../src/sha256/wasm-kernel.js";
import { SHA256_WASM_BASE64, SHA256_WASM_LAYOUT } from "../src/sha256/wasm-module.generated.js";

/** The WebAssembly API used here (core's tsconfig has no DOM lib, and @types/node declares no WebAssembly values). */
const WA = (
  globalThis as unknown as {
    WebAssembly: {
      validate(bytes: Uint8Array): boolean;
      Module: {
        new (bytes: Uint8Array): object;
        exports(module: object): { kind: string; name: string }[];
      };
    };
  }
).WebAssembly;

// The generated sources are committed; these tests regenerate them and fail if they drifted from their generators.
// Fix a failure with `node packages/core/scripts/gen-sha256.mjs`.
describe("generated SHA-256 sources", () => {
  it("js-compress.generated.ts is the output of scripts/gen-sha256.mjs", () => {
    expect(readFileSync(JS_OUTPUT_PATH, "utf8")).toBe(generateJsKernelSource());
  });

  it("wasm-module.generated.ts is the output of wasm-gen.ts", () => {
    const { bytes, layout } = buildSha256WasmModule();
    expect(readFileSync(WASM_OUTPUT_PATH, "utf8")).toBe(wasmModuleSource(bytes, layout));
    expect(SHA256_WASM_LAYOUT).toEqual(layout);
    expect(Buffer.from(SHA256_WASM_BASE64, "base64").equals(Buffer.from(bytes))).toBe(true);
  });

  it("the generated module validates and exports memory, h64, h32 and stem1", () => {
    const { bytes, layout } = buildSha256WasmModule();
    expect(WA.validate(bytes)).toBe(true);
    const mod = new WA.Module(bytes);
    expect(WA.Module.exports(mod).map((e) => `${e.kind}:${e.name}`)).toEqual([
      "memory:memory",
      "function:h64",
      "function:h32",
      "function:stem1",
    ]);
    // Constants, input and output areas fit in the memory and do not overlap.
    expect(layout.inPtr).toBeGreaterThan(0);
    expect(layout.outPtr).toBe(layout.inPtr + 64 * layout.chunk);
    expect(layout.outPtr + 32 * layout.chunk).toBeLessThanOrEqual(65536 * layout.pages);
  });

  it("the SIMD probe of the kernel is the generator's probe module and validates", () => {
    expect(Array.from(SIMD_PROBE)).toEqual(Array.from(simdProbeModule()));
    expect(WA.validate(Uint8Array.from(SIMD_PROBE))).toBe(true);
  });
});
