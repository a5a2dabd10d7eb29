import { createRequire } from "node:module";

/** What is used of the `secp256k1` package's native binding (libsecp256k1). */
export interface NativeSecp256k1 {
  ecdsaRecover(
    signature: Uint8Array,
    recovery: number,
    message: Uint8Array,
    compressed: boolean,
  ): Uint8Array;
  /** RFC 6979's deterministic nonce, s in the lower half: r ‖ s and the recovery id. */
  ecdsaSign(message: Uint8Array, secretKey: Uint8Array): { signature: Uint8Array; recid: number };
}

// Loaded at run time from the package's node_modules (a native addon cannot be bundled).
const require = createRequire(import.meta.url);

let binding: NativeSecp256k1 | null | undefined;

/**
 * libsecp256k1 through the `secp256k1` package's prebuilt binding, or null where it has none
 * for this platform (its JavaScript fallback is no faster than the library's own).
 */
export function nativeSecp256k1(): NativeSecp256k1 | null {
  if (binding === undefined) {
    try {
      binding = require("secp256k1/bindings") as NativeSecp256k1;
    } catch {
      binding = null;
    }
  }
  return binding;
}
