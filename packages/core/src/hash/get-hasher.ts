import { describeValue } from "@bintrie/codec";
import { bestSha256Kernel } from "../sha256/best-kernel.js";
import type { Sha256BatchKernel } from "../sha256/kernel.js";
import { createBlake3Hasher } from "./blake3-hasher.js";
import { HashError } from "./errors.js";
import type { Hasher, HashFunctionName } from "./hasher.js";
import { createSha256Hasher } from "./sha256-hasher.js";

// Created on first use so importing the package does no hashing setup (and registers nothing).
let sharedSha256: Hasher | undefined;
let sharedSha256Kernel: Sha256BatchKernel | undefined;
let sharedBlake3: Hasher | undefined;

/**
 * The shared hasher for `name`. Hashers keep scratch state but never across calls, so one
 * instance per function is safe to share within a thread.
 *
 * @example
 * ```ts
 * import { getHasher } from "@bintrie/core";
 *
 * const digest = getHasher("sha256").digest(new Uint8Array(0)); // sha256 of nothing
 * ```
 */
export function getHasher(name: HashFunctionName): Hasher {
  switch (name) {
    case "sha256": {
      // The fastest batch kernel available here (WebAssembly SIMD, else unrolled pure TS); a
      // faster one installed later (prepareSha256Kernel) serves hashers handed out from then on.
      const kernel = bestSha256Kernel();
      if (sharedSha256 === undefined || sharedSha256Kernel !== kernel) {
        sharedSha256 = createSha256Hasher(kernel);
        sharedSha256Kernel = kernel;
      }
      return sharedSha256;
    }
    case "blake3":
      sharedBlake3 ??= createBlake3Hasher();
      return sharedBlake3;
    default:
      throw new HashError(
        "UNKNOWN_HASH_FUNCTION",
        `unknown hash function ${describeValue(name)} (expected 'sha256' or 'blake3')`,
      );
  }
}
