// Types of scripts/gen-sha256.mjs, for the drift test.
export declare const JS_OUTPUT_PATH: string;
export declare const WASM_OUTPUT_PATH: string;
export declare function generateJsKernelSource(): string;
export declare function wasmModuleSource(
  bytes: Uint8Array,
  layout: { inPtr: number; outPtr: number; chunk: number; pages: number },
): string;
export declare function loadWasmGenerator(): Promise<{
  buildSha256WasmModule(): {
    bytes: Uint8Array;
    layout: { inPtr: number; outPtr: number; chunk: number; pages: number };
  };
}>;
