/** A SHA-256 digest function: Node's crypto in tests, the core hasher in browser benchmarks. */
export type Sha256 = (data: Uint8Array) => Uint8Array;

/**
 * The shared random workload of the project's benchmarks (shared/spec/peer-ethereumjs.md §2):
 * key_i = sha256(uint64_be(i)), value_i = sha256(key_i).
 */
export function sharedWorkloadWith(
  sha256: Sha256,
  n: number,
): { keys: Uint8Array[]; values: Uint8Array[] } {
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

/**
 * The shared workload's update k (of its 1,000 updates): key index j and its new value, derived
 * from the original value_j.
 */
export function sharedUpdate(
  sha256: Sha256,
  k: number,
  n: number,
  values: readonly Uint8Array[],
): { j: number; value: Uint8Array } {
  const tag = new Uint8Array(7);
  tag.set([0x75, 0x70, 0x64]); // "upd"
  new DataView(tag.buffer).setUint32(3, k);
  const r = sha256(tag);
  const j = new DataView(r.buffer, r.byteOffset).getUint32(0) % n;
  const input = new Uint8Array(36);
  input.set(values[j]!);
  new DataView(input.buffer).setUint32(32, k);
  return { j, value: sha256(input) };
}
