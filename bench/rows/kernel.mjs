// Row: SHA-256 batch kernels vs node:crypto one-shot, ns per message (median), 32- and 64-byte.
import { createHash, hash as cryptoHash } from "node:crypto";
import { createSha256Hasher, createWasmSha256Kernel, jsSha256Kernel } from "@bintrie/core/sha256";
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js";
import { measureBatchNs } from "./kernel-floor.mjs";

const n = 4096;
const res = { row: "kernel", n, node: process.version };
function perMessage(fn, size, runs = 7) {
  const src = new Uint8Array(n * size);
  for (let i = 0; i < src.length; i++) src[i] = (i * 17 + 3) & 0xff;
  const dst = new Uint8Array(n * 32);
  const once = () => {
    for (let i = 0; i < n; i++) dst.set(fn(src.subarray(i * size, (i + 1) * size)), i * 32);
  };
  for (let w = 0; w < 5; w++) once();
  const samples = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    once();
    samples.push(((performance.now() - t) * 1e6) / n);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(runs / 2)];
}
const crypto = (m) => cryptoHash("sha256", m, "buffer");
for (const size of [32, 64]) {
  res[`crypto_hash_ns_${size}`] = perMessage(crypto, size);
  res[`crypto_createHash_ns_${size}`] = perMessage(
    (m) => createHash("sha256").update(m).digest(),
    size,
  );
  res[`noble_ns_${size}`] = perMessage(nobleSha256, size);
  res[`js_kernel_ns_${size}`] = measureBatchNs(createSha256Hasher(jsSha256Kernel), size);
  const wasm = createWasmSha256Kernel();
  res[`wasm_kernel_ns_${size}`] = wasm ? measureBatchNs(createSha256Hasher(wasm), size) : null;
}
// The fused one-value stem hash (1 m32 + 9 m64 in one call) beside the same messages through the
// generic batch calls, ns per stem.
for (const [name, kernel] of [
  ["js", jsSha256Kernel],
  ["wasm", createWasmSha256Kernel()],
]) {
  if (kernel === undefined) continue;
  const hasher = createSha256Hasher(kernel);
  res[`${name}_one_value_stem_ns`] = measureBatchNs(hasher, "stem");
  res[`${name}_one_value_stem_generic_ns`] =
    res[`${name}_kernel_ns_32`] + 9 * res[`${name}_kernel_ns_64`];
  res[`${name}_one_value_stem_over_generic`] =
    res[`${name}_one_value_stem_ns`] / res[`${name}_one_value_stem_generic_ns`];
}
// Our batch kernel's cost per message over crypto.hash's one-shot cost (lower is better).
res.kernel_over_crypto_hash =
  (res.wasm_kernel_ns_64 ?? res.js_kernel_ns_64) / res.crypto_hash_ns_64;
res.kernel32_over_crypto_hash =
  (res.wasm_kernel_ns_32 ?? res.js_kernel_ns_32) / res.crypto_hash_ns_32;
console.log(JSON.stringify(res));
