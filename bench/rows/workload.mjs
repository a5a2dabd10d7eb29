// The shared workload (../shared/bench-peers/ethereumjs-binarytree.mjs describes it):
//   key_i = sha256(uint64_be(i)), value_i = sha256(key_i), i = 0..N-1, inserted in order;
//   updates k = 0..U-1: j = uint32_be(sha256("upd" || uint32_be(k))[0..4]) mod N,
//   new value_j = sha256(value_j || uint32_be(k)) with the ORIGINAL value_j (what the peer script
//   does and what the published roots in ethereumjs-vectors.json were produced with), put in order.
// Generated with node:crypto before any timing starts.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const sha = (b) => new Uint8Array(createHash("sha256").update(b).digest());

function u64be(i) {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(i));
  return b;
}

function u32be(i) {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, i);
  return b;
}

/**
 * Keys and values live in two flat buffers (32 bytes each); `key(i)` / `value(i)` return views.
 * Holding millions of separate small arrays would make every garbage collection mark them,
 * charging the benchmark's own data to whichever library is measured.
 */
export function workload(n, updates = 1000) {
  const { keyBytes, valueBytes } = n >= CACHED_FROM ? cachedPairs(n) : pairs(n);
  const key = (i) => keyBytes.subarray(i * 32, i * 32 + 32);
  const value = (i) => valueBytes.subarray(i * 32, i * 32 + 32);
  const upd = [];
  for (let k = 0; k < updates; k++) {
    const r = sha(Buffer.concat([Buffer.from("upd"), u32be(k)]));
    const j = new DataView(r.buffer).getUint32(0) % n;
    const v = sha(Buffer.concat([value(j), u32be(k)]));
    upd.push([j, v]);
  }
  // keyBytes/valueBytes: the n keys and values back to back (parallelRoot's flat input).
  return { key, value, updates: upd, keyBytes, valueBytes };
}

/** The n keys and values, computed with node:crypto. */
function pairs(n) {
  const keyBytes = new Uint8Array(n * 32);
  const valueBytes = new Uint8Array(n * 32);
  for (let i = 0; i < n; i++) {
    const k = sha(u64be(i));
    keyBytes.set(k, i * 32);
    valueBytes.set(sha(k), i * 32);
  }
  return { keyBytes, valueBytes };
}

/**
 * From this many keys on, the pairs are read from a file in .bench-out/ that the first row to
 * need them writes: computing 1M pairs costs about 3 s of node:crypto per process, and a full
 * run starts over twenty 1M-key processes (the cost kept `pnpm bench --quick` over two minutes).
 */
const CACHED_FROM = 100_000;
const CACHE_DIR = fileURLToPath(new URL("../../.bench-out/", import.meta.url));

/**
 * The pairs of `pairs(n)` through the cache file (keys, then values). A file of the wrong size,
 * or one whose sampled entries are not the workload's, is computed and written again (to a
 * temporary name, then renamed: a row never reads a half-written file).
 */
function cachedPairs(n) {
  const file = `${CACHE_DIR}workload-v1-${n}.bin`;
  if (existsSync(file) && statSync(file).size === n * 64) {
    const bytes = readFileSync(file);
    const keyBytes = new Uint8Array(bytes.buffer, bytes.byteOffset, n * 32);
    const valueBytes = new Uint8Array(bytes.buffer, bytes.byteOffset + n * 32, n * 32);
    if (samplesMatch(n, keyBytes, valueBytes)) return { keyBytes, valueBytes };
  }
  const computed = pairs(n);
  mkdirSync(CACHE_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, computed.keyBytes);
  writeFileSync(partial, computed.valueBytes, { flag: "a" });
  renameSync(partial, file);
  return computed;
}

/** Whether 64 entries spread over the range (the first and last among them) are the workload's. */
function samplesMatch(n, keyBytes, valueBytes) {
  for (let s = 0; s < 64; s++) {
    const i = Math.floor((s * (n - 1)) / 63);
    const k = sha(u64be(i));
    const v = sha(k);
    for (let b = 0; b < 32; b++) {
      if (keyBytes[i * 32 + b] !== k[b] || valueBytes[i * 32 + b] !== v[b]) return false;
    }
  }
  return true;
}

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
}

export const hex = (b) => `0x${Buffer.from(b).toString("hex")}`;

/** The process's CPU time in ms (all threads): steadier than wall time on a shared host. */
export function cpuMs() {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/**
 * The block keys of the dev tools (the same sequence on every call of this function): each call
 * of the returned function gives 900 keys of the `n`-key workload and 100 new random keys.
 */
export function blockKeyGenerator(key, n) {
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  return () => {
    const ks = [];
    for (let u = 0; u < 900; u++) ks.push(key(Math.floor(rand() * n)));
    for (let u = 0; u < 100; u++) {
      ks.push(Uint8Array.from({ length: 32 }, () => (rand() * 256) | 0));
    }
    return ks;
  };
}

/** A fixed-seed xorshift32 generator of numbers in [0, 1) (the same sequence for a seed). */
export function xorshift32(seed) {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}
