// Proof size per key and verify throughput for random trees.
// Build first: pnpm --filter @bintrie/codec --filter @bintrie/core build
// Usage: node bench/proof-bench.mjs [--sizes 10000,100000] [--counts 1,10,100,1000]
//        [--scheme sha256-be|blake3-be] [--minMs 300]
// Prints one JSON document on stdout.
import { BinaryTree } from "../dist/index.js";
// The synchronous prover (the async `prove` awaits loads first): the bench times the walk.
import { proveSync, verifyProof } from "../dist/proof/index.js";
import { createSha256Hasher } from "../dist/sha256/index.js";

// The pure-TS SHA-256 kernel, for the throughput where WebAssembly SIMD is unavailable (the
// default hasher uses SIMD when it can).
let portableHasher;
try {
  const { jsSha256Kernel } = await import("../dist/sha256/index.js");
  portableHasher = createSha256Hasher(jsSha256Kernel);
} catch {
  portableHasher = undefined;
}

const args = new Map();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i], process.argv[i + 1]);
const sizes = (args.get("--sizes") ?? "10000,100000").split(",").map(Number);
const counts = (args.get("--counts") ?? "1,10,100,1000").split(",").map(Number);
const scheme = args.get("--scheme") ?? "sha256-be";
const minMs = Number(args.get("--minMs") ?? 300);

/** Deterministic bytes (xorshift32) so every run measures the same trees and keys. */
function prng(seed) {
  let x = seed >>> 0 || 0x9e3779b9;
  return (n) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      out[i] = x & 0xff;
    }
    return out;
  };
}

/** ms per call: the median of 5 samples of at least minMs/5 each, after a warm-up. */
function timePerCall(fn) {
  const until = performance.now() + minMs / 3;
  while (performance.now() < until) fn();
  const samples = [];
  for (let s = 0; s < 5; s++) {
    let calls = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      fn();
      calls++;
      elapsed = performance.now() - start;
    } while (elapsed < minMs / 5);
    samples.push(elapsed / calls);
  }
  samples.sort((a, b) => a - b);
  return samples[2];
}

/** A hasher that counts the messages a verification hashes. */
function countingHasher(inner) {
  const counts = { messages: 0 };
  return {
    counts,
    hasher: {
      name: inner.name,
      digest: (m) => inner.digest(m),
      hash32Batch(src, so, n, dst, d) {
        counts.messages += n;
        inner.hash32Batch(src, so, n, dst, d);
      },
      hash64Batch(src, so, n, dst, d) {
        counts.messages += n;
        inner.hash64Batch(src, so, n, dst, d);
      },
    },
  };
}

const round = (x, digits) => Math.round(x * 10 ** digits) / 10 ** digits;

const results = [];
for (const size of sizes) {
  const rand = prng(size);
  const tree = new BinaryTree({ scheme });
  const keys = [];
  for (let i = 0; i < size; i++) {
    const key = rand(32);
    keys.push(key);
    tree.put(key, rand(32));
  }
  const root = tree.hash();
  for (const count of counts) {
    for (const mix of ["present", "absent", "half-absent"]) {
      const pick = prng(count * 7919 + size);
      const query = [];
      for (let i = 0; i < count; i++) {
        const absent = mix === "absent" || (mix === "half-absent" && i % 2 === 1);
        if (absent) {
          query.push(pick(32));
        } else {
          const r = pick(4);
          query.push(keys[(((r[0] << 24) | (r[1] << 16) | (r[2] << 8) | r[3]) >>> 0) % size]);
        }
      }
      const proof = proveSync(tree, query);
      const values = verifyProof(root, query, proof, { scheme });
      for (let i = 0; i < count; i++) {
        const expected = tree.get(query[i]);
        const got = values[i];
        if ((expected === undefined) !== (got === undefined)) throw new Error("verify disagrees");
      }
      const counting = countingHasher(tree.hasher);
      verifyProof(root, query, proof, { hasher: counting.hasher });
      const proveMs = timePerCall(() => proveSync(tree, query));
      const verifyMs = timePerCall(() => verifyProof(root, query, proof, { scheme }));
      const row = {
        treeKeys: size,
        proofKeys: count,
        keys: mix,
        proofBytes: proof.length,
        bytesPerKey: round(proof.length / count, 1),
        hashesPerKey: round(counting.counts.messages / count, 1),
        proveMs: round(proveMs, 3),
        verifyMs: round(verifyMs, 3),
        verifyKeysPerSecond: Math.round(count / (verifyMs / 1000)),
      };
      if (portableHasher !== undefined && scheme.startsWith("sha256")) {
        const jsMs = timePerCall(() => verifyProof(root, query, proof, { hasher: portableHasher }));
        row.verifyKeysPerSecondPortable = Math.round(count / (jsMs / 1000));
      }
      results.push(row);
    }
  }
}

console.log(
  JSON.stringify(
    {
      bench: "proof",
      scheme,
      node: process.version,
      loadAverage: (await import("node:os")).loadavg().map((x) => round(x, 2)),
      note: "random 32-byte keys (one value per stem); proof keys drawn with replacement; absent keys are random; times are medians of 5 samples with the default hasher; *Portable = the pure-TS SHA-256 kernel",
      results,
    },
    null,
    2,
  ),
);
