import { bestSha256Kernel, onSha256KernelChange } from "../sha256/index.js";
import { createBlake3Hasher } from "./blake3-hasher.js";
import { HashError } from "./errors.js";
import type { Hasher, HashFunctionName } from "./hasher.js";
import { createSha256Hasher } from "./sha256-hasher.js";

// Created on first use so importing the package does no hashing setup.
let sharedSha256: Hasher | undefined;
let sharedBlake3: Hasher | undefined;
// A faster kernel installed later (prepareSha256Kernel) serves hashers handed out from then on.
onSha256KernelChange(() => {
  sharedSha256 = undefined;
});

/**
 * The shared hasher for `name`. Hashers keep scratch state but never across calls, so one
 * instance per function is safe to share within a thread.
 */
export function getHasher(name: HashFunctionName): Hasher {
  switch (name) {
    case "sha256":
      // The fastest batch kernel available here (WebAssembly SIMD, else unrolled pure TS).
      sharedSha256 ??= createSha256Hasher(bestSha256Kernel());
      return sharedSha256;
    case "blake3":
      sharedBlake3 ??= createBlake3Hasher();
      return sharedBlake3;
    default:
      throw new HashError(
        "UNKNOWN_HASH_FUNCTION",
        `unknown hash function ${JSON.stringify(name)} (expected 'sha256' or 'blake3')`,
      );
  }
}
