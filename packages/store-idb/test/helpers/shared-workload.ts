import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/**
 * The shared random workload of the project's benchmarks (shared/spec/peer-ethereumjs.md §2):
 * key_i = sha256(uint64_be(i)), value_i = sha256(key_i).
 */
export function sharedWorkload(n: number): { keys: Uint8Array[]; values: Uint8Array[] } {
  const keys: Uint8Array[] = [];
  const values: Uint8Array[] = [];
  const index = new Uint8Array(8);
  const view = new DataView(index.buffer);
  for (let i = 0; i < n; i++) {
    view.setBigUint64(0, BigInt(i));
    const key = sha256(index);
    keys.push(key);
    values.push(sha256(key));
  }
  return { keys, values };
}

export function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(data).digest());
}

interface ReferenceVectors {
  random_1000: {
    checkpoints: { inserted: number; expected_root: { sha256: string; blake3: string } }[];
  };
}

/** Expected roots of the shared workload's first N keys, from shared/vectors (not copied). */
export function random1000Checkpoints(): ReferenceVectors["random_1000"]["checkpoints"] {
  const url = new URL("../../../../../shared/vectors/eip7864-reference.json", import.meta.url);
  const vectors = JSON.parse(readFileSync(url, "utf8")) as ReferenceVectors;
  return vectors.random_1000.checkpoints;
}
