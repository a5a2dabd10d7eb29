import { createHash } from "node:crypto";

/**
 * The crash test's deterministic workload, shared by the child that commits it and the parent
 * that checks what survived: iteration i writes BATCH_WRITES keys drawn from a universe of
 * UNIVERSE keys, each with a value that names the key and the iteration. Early iterations mostly
 * insert (stems split and move, so commits delete old paths); later ones mostly update.
 */
export const UNIVERSE = 6_144;
export const BATCH_WRITES = 3_072;

function sha256(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}

function u32(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

const KEY_TAG = new TextEncoder().encode("crash-key");
const PICK_TAG = new TextEncoder().encode("crash-pick");

/** Key number j of the universe. */
export function universeKey(j: number): Uint8Array {
  return sha256(KEY_TAG, u32(j));
}

/** The value key j holds after iteration i last wrote it. */
export function valueAt(key: Uint8Array, iteration: number): Uint8Array {
  return sha256(key, u32(iteration));
}

/** The universe indices iteration i writes (with repeats; a repeat writes the same value). */
export function batchIndices(seed: number, iteration: number): Uint32Array {
  const out = new Uint32Array(BATCH_WRITES);
  const block = sha256(PICK_TAG, u32(seed), u32(iteration));
  // Expand one digest per 8 picks: enough randomness, cheap to recompute in the parent.
  let digest = block;
  for (let t = 0; t < BATCH_WRITES; t++) {
    if (t % 8 === 0) digest = sha256(block, u32(t));
    out[t] = new DataView(digest.buffer).getUint32((t % 8) * 4) % UNIVERSE;
  }
  return out;
}
