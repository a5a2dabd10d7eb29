import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { sharedWorkloadWith } from "./shared-workload.js";

/** SHA-256 by Node's crypto: independent of the hasher under test. */
export function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(data).digest());
}

/** The shared workload's first `n` keys and values, hashed by Node's crypto. */
export function sharedWorkload(n: number): { keys: Uint8Array[]; values: Uint8Array[] } {
  return sharedWorkloadWith(sha256, n);
}

interface ReferenceVectors {
  random_1000: {
    checkpoints: { inserted: number; expected_root: { sha256: string; blake3: string } }[];
  };
}

/** Expected roots of the shared workload's first N keys, from the vendored testdata/reference. */
export function random1000Checkpoints(): ReferenceVectors["random_1000"]["checkpoints"] {
  // From src/ or dist/ of packages/store-testkit up to the repository root.
  const url = new URL("../../../testdata/reference/eip7864-reference.json", import.meta.url);
  const vectors = JSON.parse(readFileSync(url, "utf8")) as ReferenceVectors;
  return vectors.random_1000.checkpoints;
}
