#!/usr/bin/env node
// Generates the two generated sources of packages/core/src/sha256:
//   js-compress.generated.ts    fully unrolled pure-JS SHA-256 of one 64-byte and one 32-byte message;
//   wasm-module.generated.ts    the WebAssembly SIMD module, built by src/sha256/wasm-gen.ts (TypeScript,
//                               transpiled on the fly with the workspace's `typescript`), stored as base64.
//
//   node packages/core/scripts/gen-sha256.mjs           (re)write both files
//   node packages/core/scripts/gen-sha256.mjs --check   exit 1 if either differs from the generator output
//
// test/sha256-generated.test.ts regenerates both in memory and compares, so they cannot drift.
//
// The JS generator (see /work/shared/spec/sha256-kernels.md for the measurements behind it):
// - all 64 rounds are unrolled; the a..h roles are renamed every round instead of shuffling eight values;
// - Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)) reuses (a ^ b) of the previous round as (b ^ c);
// - values known at generation time are folded: the IV in round 0 (and what stays constant in rounds 1..3), the
//   padding words 8..15 of a 32-byte message (and every schedule term made of them), and for a 64-byte message the
//   whole second (padding) block's schedule with K already added;
// - loads and stores are big-endian DataView getInt32 / setInt32, which TurboFan inlines as load + bswap;
// - sums list their terms in the order they become ready (T1 = h + K + W + Ch + Sigma1(e), a' = Sigma0(a) + Maj + T1),
//   because TurboFan keeps JS's left-to-right association: this shortens the per-round dependency chain
//   (64 B: 357 -> 340 ns, 32 B: 134 -> 122 ns, CPU time on a loaded machine).

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const SRC_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../src/sha256");
export const JS_OUTPUT_PATH = resolve(SRC_DIR, "js-compress.generated.ts");
export const WASM_OUTPUT_PATH = resolve(SRC_DIR, "wasm-module.generated.ts");
const WASM_GENERATOR_PATH = resolve(SRC_DIR, "wasm-gen.ts");

// The constants come from the wasm generator, so the two kernels cannot disagree on them.
const { SHA256_K: K, SHA256_IV: IV } = await loadWasmGenerator();

// ---- numeric helpers (generation-time constant folding) ----
const rotr = (x, n) => (x >>> n) | (x << (32 - n));
const bigSigma0 = (x) => rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22);
const bigSigma1 = (x) => rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25);
const smallSigma0 = (x) => rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
const smallSigma1 = (x) => rotr(x, 17) ^ rotr(x, 19) ^ (x >>> 10);

// ---- symbolic values: { c: int32 } is known at generation time, { s: string, atom: boolean } is JS source ----
const C = (c) => ({ c: c | 0 });
const V = (s) => ({ s, atom: true });
const isC = (x) => x.c !== undefined;

function lit(c) {
  const v = c | 0;
  return v < 0
    ? `-0x${(-v).toString(16).padStart(8, "0")}`
    : `0x${v.toString(16).padStart(8, "0")}`;
}
const src = (x) => (isC(x) ? lit(x.c) : x.s);
const paren = (x) => (isC(x) || x.atom ? src(x) : `(${x.s})`);

function bitop(op, x, y) {
  if (isC(x) && isC(y)) {
    if (op === "^") return C(x.c ^ y.c);
    if (op === "&") return C(x.c & y.c);
    return C(x.c | y.c);
  }
  return { s: `${paren(x)} ${op} ${paren(y)}`, atom: false };
}
const xor = (x, y) => bitop("^", x, y);
const and = (x, y) => bitop("&", x, y);

/** Sum modulo 2^32 of terms (undefined terms are skipped); the constant terms are folded into one literal at the end. */
function sum(terms) {
  let k = 0;
  const parts = [];
  for (const t of terms) {
    if (t === undefined) continue;
    if (isC(t)) k = (k + t.c) | 0;
    else parts.push(paren(t));
  }
  if (parts.length === 0) return C(k);
  let s = parts.join(" + ");
  if (k !== 0) s += k < 0 ? ` - ${lit(-k)}` : ` + ${lit(k)}`;
  return { s: `(${s}) | 0`, atom: false };
}

const rot = (x, n) => `((${x} >>> ${n}) | (${x} << ${32 - n}))`;
const sigmaSrc = {
  S0: (x) => `${rot(x, 2)} ^ ${rot(x, 13)} ^ ${rot(x, 22)}`,
  S1: (x) => `${rot(x, 6)} ^ ${rot(x, 11)} ^ ${rot(x, 25)}`,
  s0: (x) => `${rot(x, 7)} ^ ${rot(x, 18)} ^ (${x} >>> 3)`,
  s1: (x) => `${rot(x, 17)} ^ ${rot(x, 19)} ^ (${x} >>> 10)`,
};
const sigmaNum = { S0: bigSigma0, S1: bigSigma1, s0: smallSigma0, s1: smallSigma1 };

const SLOT = ["a", "b", "c", "d", "e", "f", "g", "h"];

class Emitter {
  constructor() {
    this.lines = [];
  }
  line(s) {
    this.lines.push(`  ${s}`);
  }
  /** `name = value;` unless the value is a constant (then nothing is emitted and the constant is carried). */
  assign(name, x) {
    if (isC(x)) return x;
    if (x.atom && x.s === name) return x;
    this.line(`${name} = ${x.s};`);
    return V(name);
  }
  /** A sigma function of x, through the temporary `tmp` when x is not constant. */
  sigma(kind, x, tmp) {
    if (isC(x)) return C(sigmaNum[kind](x.c));
    this.line(`${tmp} = ${sigmaSrc[kind](src(x))};`);
    return V(tmp);
  }
}

/**
 * Emits rounds [0, 64) of one compression. `state` holds the 8 slot values (role r of round t lives in slot (r - t) & 7);
 * `kw(t, em)` returns the terms K[t] + W[t] of round t (emitting schedule code if needed).
 */
function emitRounds(em, state, kw) {
  const abName = ["x", "y"];
  let bc = em.assign(abName[1], xor(state[1], state[2]));
  for (let t = 0; t < 64; t++) {
    const role = (r) => state[(r - t) & 7];
    const a = role(0);
    const b = role(1);
    const d = role(3);
    const e = role(4);
    const f = role(5);
    const g = role(6);
    const h = role(7);
    const terms = kw(t, em);
    // Sums are evaluated left to right, so the terms that are ready last (Sigma1(e), then T1) come last.
    const s1 = em.sigma("S1", e, "s");
    const ch = xor(g, and(e, xor(f, g)));
    const t1 = em.assign("t", sum([h, ...terms, ch, s1]));
    state[(3 - t) & 7] = em.assign(SLOT[(3 - t) & 7], sum([d, t1]));
    const ab = em.assign(abName[t & 1], xor(a, b));
    const maj = xor(b, and(ab, bc));
    const s0 = em.sigma("S0", a, "s");
    state[(7 - t) & 7] = em.assign(SLOT[(7 - t) & 7], sum([s0, maj, t1]));
    bc = ab;
  }
}

/** Message schedule over symbolic words; w[t] for t < 16 is given, later words are emitted into the ring w0..w15. */
function scheduleKw(em, w) {
  return (t) => {
    if (t >= 16) {
      const s1 = em.sigma("s1", w[t - 2], "u");
      const s0 = em.sigma("s0", w[t - 15], "v");
      w[t] = em.assign(`w${t & 15}`, sum([w[t - 16], w[t - 7], s0, s1]));
    }
    return [C(K[t]), w[t]];
  };
}

function header(em, name, doc, extra) {
  em.lines.push(`/** ${doc} */`);
  em.lines.push(
    `export function ${name}(src: DataView, p: number, dst: DataView, q: number): void {`,
  );
  for (const v of [...SLOT, "s", "t", "u", "v", "x", "y", ...extra]) em.line(`let ${v}: number;`);
}

function emitOutput(em, state, ff) {
  for (let k = 0; k < 8; k++) {
    const value = sum([state[k], ff[k]]);
    em.line(`dst.setInt32(${k === 0 ? "q" : `q + ${4 * k}`}, ${src(value)});`);
  }
  em.lines.push("}");
}

function gen64() {
  const em = new Emitter();
  const ring = Array.from({ length: 16 }, (_, i) => `w${i}`);
  header(
    em,
    "sha256Msg64",
    "SHA-256 of the 64-byte message at src[p, p + 64), written big-endian to dst[q, q + 32). All input is read before any output is written.",
    ring,
  );
  const w = [];
  for (let i = 0; i < 16; i++) {
    em.line(`w${i} = src.getInt32(${i === 0 ? "p" : `p + ${4 * i}`});`);
    w.push(V(`w${i}`));
  }
  // Block 1: the message. The state starts as the IV (constant folded in the first rounds).
  const state = IV.map(C);
  emitRounds(em, state, scheduleKw(em, w));
  // Chaining value after block 1, kept in i0..i7 for the second feed-forward.
  const mid = [];
  for (let k = 0; k < 8; k++) {
    em.line(`const i${k} = ${src(sum([state[k], C(IV[k])]))};`);
    mid.push(V(`i${k}`));
  }
  // Block 2: the constant padding block 0x80, 0 ... 0, bit length 512; its schedule with K added is folded in.
  const pad = new Array(64).fill(0);
  pad[0] = 0x80000000 | 0;
  pad[15] = 512;
  for (let t = 16; t < 64; t++) {
    pad[t] = (smallSigma1(pad[t - 2]) + pad[t - 7] + smallSigma0(pad[t - 15]) + pad[t - 16]) | 0;
  }
  const state2 = mid.slice();
  emitRounds(em, state2, (t) => [C(K[t] + pad[t])]);
  emitOutput(em, state2, mid);
  return em.lines;
}

function gen32() {
  const em = new Emitter();
  const ring = Array.from({ length: 16 }, (_, i) => `w${i}`);
  header(
    em,
    "sha256Msg32",
    "SHA-256 of the 32-byte message at src[p, p + 32), written big-endian to dst[q, q + 32). All input is read before any output is written.",
    ring,
  );
  const w = [];
  for (let i = 0; i < 8; i++) {
    em.line(`w${i} = src.getInt32(${i === 0 ? "p" : `p + ${4 * i}`});`);
    w.push(V(`w${i}`));
  }
  // Padding words of a one-block 32-byte message: 0x80 after the data, zeros, bit length 256.
  w.push(C(0x80000000), C(0), C(0), C(0), C(0), C(0), C(0), C(256));
  const state = IV.map(C);
  emitRounds(em, state, scheduleKw(em, w));
  emitOutput(em, state, IV.map(C));
  return em.lines;
}

export function generateJsKernelSource() {
  return [
    "// Generated by packages/core/scripts/gen-sha256.mjs. Do not edit by hand:",
    "// run `node packages/core/scripts/gen-sha256.mjs` after changing the generator.",
    "",
    ...gen64(),
    "",
    ...gen32(),
    "",
  ].join("\n");
}

/** Source of wasm-module.generated.ts for the given module bytes and layout. */
export function wasmModuleSource(bytes, layout) {
  const b64 = Buffer.from(bytes).toString("base64");
  const { inPtr, outPtr, chunk, pages } = layout;
  return [
    "// Generated by packages/core/scripts/gen-sha256.mjs from wasm-gen.ts. Do not edit by hand:",
    "// run `node packages/core/scripts/gen-sha256.mjs` after changing the generator.",
    "",
    'import type { Sha256WasmLayout } from "./wasm-gen.js";',
    "",
    "/** Memory layout of the module below. */",
    "export const SHA256_WASM_LAYOUT: Sha256WasmLayout = {",
    `  inPtr: ${inPtr},`,
    `  outPtr: ${outPtr},`,
    `  chunk: ${chunk},`,
    `  pages: ${pages},`,
    "};",
    "",
    `/** The SHA-256 SIMD module (${bytes.length} bytes), base64. */`,
    "export const SHA256_WASM_BASE64 =",
    `  "${b64}";`,
    "",
  ].join("\n");
}

/** Imports src/sha256/wasm-gen.ts (self-contained) after transpiling it with the workspace's TypeScript. */
export async function loadWasmGenerator() {
  const ts = (await import("typescript")).default;
  const { outputText } = ts.transpileModule(readFileSync(WASM_GENERATOR_PATH, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    fileName: WASM_GENERATOR_PATH,
  });
  const url = `data:text/javascript;base64,${Buffer.from(outputText).toString("base64")}`;
  return import(url);
}

async function main() {
  const gen = await loadWasmGenerator();
  const { bytes, layout } = gen.buildSha256WasmModule();
  const outputs = [
    [JS_OUTPUT_PATH, generateJsKernelSource()],
    [WASM_OUTPUT_PATH, wasmModuleSource(bytes, layout)],
  ];
  let stale = false;
  for (const [path, text] of outputs) {
    if (process.argv.includes("--check")) {
      let current = "";
      try {
        current = readFileSync(path, "utf8");
      } catch {}
      if (current !== text) {
        console.error(`${path} is out of date; run node ${process.argv[1]}`);
        stale = true;
      }
    } else {
      writeFileSync(path, text);
      console.log(`wrote ${path}`);
    }
  }
  if (stale) process.exit(1);
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  await main();
}
