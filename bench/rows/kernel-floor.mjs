// Per-message cost of a hasher's batch kernel at n = 4096 (the "hash floor" unit), median of runs.
// size 32 or 64: hash32Batch / hash64Batch; "stem": hashOneValueStems (64-byte records, ns per stem).
export function measureBatchNs(hasher, size, { n = 4096, runs = 9, minMs = 60 } = {}) {
  const src = new Uint8Array(n * (size === "stem" ? 64 : size));
  for (let i = 0; i < src.length; i++) src[i] = (i * 131 + 7) & 0xff;
  const dst = new Uint8Array(n * 32);
  const call =
    size === "stem"
      ? (k) => hasher.hashOneValueStems(src, 0, k, dst, 0)
      : size === 64
        ? (k) => hasher.hash64Batch(src, 0, k, dst, 0)
        : (k) => hasher.hash32Batch(src, 0, k, dst, 0);
  for (let w = 0; w < 20; w++) call(n); // warm up (tier-up)
  const samples = [];
  for (let r = 0; r < runs; r++) {
    let iterations = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < minMs) {
      call(n);
      iterations++;
      elapsed = performance.now() - start;
    }
    samples.push((elapsed * 1e6) / (iterations * n));
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

/**
 * Wraps a hasher to count the 32- and 64-byte messages a computation hashes. It forwards the fused
 * one-value stem call (else the tree would take the level-by-level path) and counts what that call
 * hashes per stem: the leaf (1 m32), 8 fold levels and the stem hash (9 m64), the same messages as
 * the floor prices.
 */
export function countingHasher(inner) {
  const counts = { m32: 0, m64: 0 };
  return {
    counts,
    hasher: {
      name: inner.name,
      digest: (m) => inner.digest(m),
      hash32Batch(src, so, n, dst, doff) {
        counts.m32 += n;
        inner.hash32Batch(src, so, n, dst, doff);
      },
      hash64Batch(src, so, n, dst, doff) {
        counts.m64 += n;
        inner.hash64Batch(src, so, n, dst, doff);
      },
      hashOneValueStems(src, so, n, dst, doff) {
        counts.m32 += n;
        counts.m64 += 9 * n;
        inner.hashOneValueStems(src, so, n, dst, doff);
      },
    },
  };
}
