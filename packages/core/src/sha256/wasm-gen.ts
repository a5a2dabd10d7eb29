// Generator of the WebAssembly SIMD128 SHA-256 module: a tiny binary emitter plus an instruction-stream generator
// that unrolls the rounds. It is deterministic and runs at build time: scripts/gen-sha256.mjs stores its output in
// wasm-module.generated.ts (generating at run time would cost ~20 ms of cold JS), and test/sha256-generated.test.ts
// checks that the two agree.
//
// Lane layout: lane j of every v128 value belongs to message j of a group of 4. Messages are loaded as 16-byte
// chunks, byte-swapped with i8x16.shuffle and transposed 4x4 with dword/qword unpack shuffles (V8 emits punpck*);
// digests go out through the reverse transpose. 32-bit constants (K, IV, K + W of the padding block, constants folded
// at generation time) are stored pre-splatted in linear memory and read with v128.load at fixed addresses.
//
// Exported functions, all `(inPtr, outPtr, groups) -> ()` with groups >= 1:
//   h64: 64-byte messages at inPtr + 64i -> digests at outPtr + 32i. Block 1: rounds 0..15 unrolled (message loads,
//        IV folded into the first rounds), rounds 16..63 a loop over 16 rounds with the schedule. Block 2, the
//        constant padding block: a loop over 8 rounds (the a..h roles are back at their start after 8) reading a
//        precomputed K + W table.
//   h32: 32-byte messages at inPtr + 32i -> digests at outPtr + 32i. Rounds 0..31 unrolled, so that the padding
//        words 8..15, every schedule term made of them, and what stays constant in the first rounds are folded;
//        rounds 32..63 a loop over 16 rounds.
//   stem1: 64-byte records stem (31) ‖ subindex (1) ‖ value (32) at inPtr + 64i -> the EIP-7864 stem hash of a
//        stem holding that one value at outPtr + 32i: the h32 compression of the value, then one loop of 9 h64
//        compressions (8 stem-subtree levels, then stem ‖ 0x00 ‖ root) whose messages are built from the previous
//        digest in registers, so nothing is transposed, stored or copied between a stem's 10 messages.
// Machine code size is the main lever (op cache): the loops run as fast as the unrolled rounds they replace, and
// TurboFan code is 13.6 KB (h64, was 25 KB unrolled) and 15.8 KB (h32, was 22 KB).
//
// How the code is shaped matters as much as the op count, because TurboFan does not keep the wasm instruction
// order: pure SIMD nodes are placed by its scheduler (roughly breadth-first back from their uses), so a balanced
// xor tree of six shifts puts all six shift results in registers at once. Measured on Zen 4 / Node 20:
// - Sigma functions written as one left-deep xor chain of shifts (shifts are placed next to their xor) cut the
//   spills of the unrolled kernels by half (32 B: 87 -> 73 ns). In the padding-block loop, which has no schedule
//   work to overlap and is latency-bound, the shallower rotate tree is better.
// - The round is arranged for a short critical path: P = h + K[t] + W[t] + Ch, S1 = Sigma1(e),
//   e' = (d + P) + S1 and a' = Sigma0(a) + (Maj + (P + S1)), so both e' and a' are one add after their sigma.
//   This costs one add per round over the textbook T1/T2 form but took the loop from 66 to 54 ns per message.

export const SHA256_K: readonly number[] = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];
export const SHA256_IV: readonly number[] = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));
const smallSigma0 = (x: number): number => rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
const smallSigma1 = (x: number): number => rotr(x, 17) ^ rotr(x, 19) ^ (x >>> 10);

/** K[t] + W[t] of the second block of every 64-byte message (0x80, zeros, bit length 512). */
function paddingBlockKw(): number[] {
  const w = new Array<number>(64).fill(0);
  w[0] = 0x80000000 | 0;
  w[15] = 512;
  for (let t = 16; t < 64; t++) {
    w[t] = (smallSigma1(w[t - 2]!) + w[t - 7]! + smallSigma0(w[t - 15]!) + w[t - 16]!) | 0;
  }
  return w.map((x, t) => (x + SHA256_K[t]!) | 0);
}

// ---------------------------------------------------------------------------------------------------------------
// Binary emitter

function pushU32(out: number[], x: number): void {
  let v = x >>> 0;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
}

function pushS32(out: number[], x: number): void {
  let v = x | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return;
    }
    out.push(byte | 0x80);
  }
}

function pushBytes(out: number[], xs: ArrayLike<number>): void {
  for (let i = 0; i < xs.length; i++) out.push(xs[i]!);
}

function pushName(out: number[], s: string): void {
  pushU32(out, s.length);
  for (let i = 0; i < s.length; i++) out.push(s.charCodeAt(i));
}

function pushSection(out: number[], id: number, body: number[]): void {
  out.push(id);
  pushU32(out, body.length);
  pushBytes(out, body);
}

const WASM_HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
const I32 = 0x7f;
const V128 = 0x7b;

// Core opcodes.
const OP_LOOP_VOID = [0x03, 0x40];
const OP_END = 0x0b;
const OP_BR_IF = 0x0d;
const OP_LOCAL_GET = 0x20;
const OP_LOCAL_SET = 0x21;
const OP_LOCAL_TEE = 0x22;
const OP_I32_CONST = 0x41;
const OP_I32_NE = 0x47;
const OP_I32_ADD = 0x6a;
const OP_I32_SUB = 0x6b;
// SIMD opcodes (prefix 0xfd, then a LEB128 u32).
const SIMD = 0xfd;
const V128_LOAD = 0x00;
const V128_STORE = 0x0b;
const I8X16_SHUFFLE = 0x0d;
const I32X4_SPLAT = 0x11;
const I32X4_EQ = 0x37;
const V128_AND = 0x4e;
const V128_ANDNOT = 0x4f;
const V128_OR = 0x50;
const V128_XOR = 0x51;
const I32X4_SHL = 0xab;
const I32X4_SHR_S = 0xac;
const I32X4_SHR_U = 0xad;
const I32X4_ADD = 0xae;

interface FuncSpec {
  /** Number of i32 params (every function returns nothing). */
  params: number;
  i32Locals: number;
  v128Locals: number;
  code: number[];
}

function assembleModule(
  funcs: FuncSpec[],
  names: string[],
  memPages: number,
  data: Uint8Array,
): Uint8Array {
  const out = WASM_HEADER.slice();
  const types: number[] = [];
  pushU32(types, funcs.length);
  for (const f of funcs) {
    types.push(0x60);
    pushU32(types, f.params);
    for (let i = 0; i < f.params; i++) types.push(I32);
    types.push(0);
  }
  pushSection(out, 1, types);
  const fsec: number[] = [];
  pushU32(fsec, funcs.length);
  for (let i = 0; i < funcs.length; i++) pushU32(fsec, i);
  pushSection(out, 3, fsec);
  const mem: number[] = [1, 0x00];
  pushU32(mem, memPages);
  pushSection(out, 5, mem);
  const exp: number[] = [];
  pushU32(exp, funcs.length + 1);
  pushName(exp, "memory");
  exp.push(0x02, 0);
  for (let i = 0; i < funcs.length; i++) {
    pushName(exp, names[i]!);
    exp.push(0x00);
    pushU32(exp, i);
  }
  pushSection(out, 7, exp);
  const code: number[] = [];
  pushU32(code, funcs.length);
  for (const f of funcs) {
    const body: number[] = [];
    const groups: [number, number][] = [];
    if (f.i32Locals > 0) groups.push([f.i32Locals, I32]);
    if (f.v128Locals > 0) groups.push([f.v128Locals, V128]);
    pushU32(body, groups.length);
    for (const [n, t] of groups) {
      pushU32(body, n);
      body.push(t);
    }
    pushBytes(body, f.code);
    body.push(OP_END);
    pushU32(code, body.length);
    pushBytes(code, body);
  }
  pushSection(out, 10, code);
  // One active data segment at address 0 holding the constant pool.
  const dsec: number[] = [1, 0x00, OP_I32_CONST, 0, OP_END];
  pushU32(dsec, data.length);
  pushBytes(dsec, data);
  pushSection(out, 11, dsec);
  return Uint8Array.from(out);
}

/** A minimal module whose only function uses v128 (i32x4.splat): `WebAssembly.validate` of it detects SIMD128. */
export function simdProbeModule(): Uint8Array {
  const out = WASM_HEADER.slice();
  pushSection(out, 1, [1, 0x60, 0, 1, V128]);
  pushSection(out, 3, [1, 0]);
  const body = [0, OP_I32_CONST, 0, SIMD, I32X4_SPLAT, OP_END];
  pushSection(out, 10, [1, body.length, ...body]);
  return Uint8Array.from(out);
}

// ---------------------------------------------------------------------------------------------------------------
// Memory layout and constant pool (32-bit constants stored splatted, 16 bytes each).

/** Memory layout of the generated module (byte addresses). */
export interface Sha256WasmLayout {
  /** Start of the input area (the wrapper copies messages here). */
  inPtr: number;
  /** Start of the output area. */
  outPtr: number;
  /** Messages per kernel call (a multiple of 4). */
  chunk: number;
  /** Linear memory size in 64 KiB pages (the memory never grows). */
  pages: number;
}

const K_ADDR = 0;
const KWPAD_ADDR = K_ADDR + 64 * 16;
const IV_ADDR = KWPAD_ADDR + 64 * 16;
const SCRATCH_ADDR = IV_ADDR + 8 * 16;
// Other constants are appended after the scratch area as the generator asks for them.

class ConstPool {
  private readonly addrs = new Map<number, number>();
  private readonly values: number[] = [];
  constructor() {
    const kw = paddingBlockKw();
    for (let t = 0; t < 64; t++) this.fixed(K_ADDR + 16 * t, SHA256_K[t]!);
    for (let t = 0; t < 64; t++) this.fixed(KWPAD_ADDR + 16 * t, kw[t]!);
    for (let k = 0; k < 8; k++) this.fixed(IV_ADDR + 16 * k, SHA256_IV[k]!);
    for (let k = 0; k < 8; k++) this.values[(SCRATCH_ADDR >> 4) + k] = 0;
  }
  private fixed(addr: number, value: number): void {
    this.values[addr >> 4] = value | 0;
    if (!this.addrs.has(value | 0)) this.addrs.set(value | 0, addr);
  }
  /** Address of the splatted constant (added to the pool on first use). */
  addr(value: number): number {
    const v = value | 0;
    let a = this.addrs.get(v);
    if (a === undefined) {
      a = 16 * this.values.length;
      this.values.push(v);
      this.addrs.set(v, a);
    }
    return a;
  }
  /** Contents of the data segment at address 0: every constant splatted to 4 little-endian lanes. */
  bytes(): Uint8Array {
    const out = new Uint8Array(16 * this.values.length);
    const dv = new DataView(out.buffer);
    for (let i = 0; i < this.values.length; i++) {
      for (let l = 0; l < 4; l++) dv.setInt32(16 * i + 4 * l, this.values[i]!, true);
    }
    return out;
  }
  get end(): number {
    return 16 * this.values.length;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Expression trees over v128 values (4 lanes of i32), with constant folding at generation time.

type Expr =
  | { readonly k: "c"; readonly c: number } // constant, splatted to 4 lanes
  | { readonly k: "l"; readonly i: number } // local
  | { readonly k: "m"; readonly base: number; readonly off: number } // v128.load at local `base` (or 0 if -1) + off
  | { readonly k: "b"; readonly op: number; readonly x: Expr; readonly y: Expr } // binary op
  | { readonly k: "s"; readonly op: number; readonly x: Expr; readonly n: number } // shift by an immediate
  | { readonly k: "f"; readonly x: Expr; readonly y: Expr; readonly lanes: readonly number[] }; // i8x16.shuffle

const cst = (c: number): Expr => ({ k: "c", c: c | 0 });
const loc = (i: number): Expr => ({ k: "l", i });
const mem = (base: number, off: number): Expr => ({ k: "m", base, off });

function add(x: Expr, y: Expr): Expr {
  if (x.k === "c" && y.k === "c") return cst(x.c + y.c);
  if (x.k === "c" && x.c === 0) return y;
  if (y.k === "c" && y.c === 0) return x;
  return { k: "b", op: I32X4_ADD, x, y };
}
function bit(op: number, x: Expr, y: Expr): Expr {
  if (x.k === "c" && y.k === "c") {
    if (op === V128_XOR) return cst(x.c ^ y.c);
    if (op === V128_AND) return cst(x.c & y.c);
    return cst(x.c | y.c);
  }
  return { k: "b", op, x, y };
}
const xor = (x: Expr, y: Expr): Expr => bit(V128_XOR, x, y);
const and = (x: Expr, y: Expr): Expr => bit(V128_AND, x, y);
const or = (x: Expr, y: Expr): Expr => bit(V128_OR, x, y);
const shl = (x: Expr, n: number): Expr =>
  x.k === "c" ? cst(x.c << n) : { k: "s", op: I32X4_SHL, x, n };
const shr = (x: Expr, n: number): Expr =>
  x.k === "c" ? cst(x.c >>> n) : { k: "s", op: I32X4_SHR_U, x, n };

/**
 * XOR of the rotations of x right by each of `r`, and (small sigmas) of x >>> s. `chain`: one left-deep xor chain
 * of the shifts (few live temporaries, 6 deep); otherwise a tree of rotations (4 deep, more temporaries).
 */
function sigma(chain: boolean, x: Expr, r: readonly [number, number, number?], s?: number): Expr {
  const [r0, r1, r2] = r;
  if (chain && x.k !== "c") {
    let acc = xor(shr(x, r0), shl(x, 32 - r0));
    acc = xor(xor(acc, shr(x, r1)), shl(x, 32 - r1));
    if (r2 !== undefined) acc = xor(xor(acc, shr(x, r2)), shl(x, 32 - r2));
    return s === undefined ? acc : xor(acc, shr(x, s));
  }
  const rot = (n: number): Expr => or(shr(x, n), shl(x, 32 - n));
  return xor(xor(rot(r0), rot(r1)), r2 !== undefined ? rot(r2) : shr(x, s!));
}
const bigSigma0 = (chain: boolean, x: Expr): Expr => sigma(chain, x, [2, 13, 22]);
const bigSigma1 = (chain: boolean, x: Expr): Expr => sigma(chain, x, [6, 11, 25]);
const smallSigma0Expr = (chain: boolean, x: Expr): Expr => sigma(chain, x, [7, 18], 3);
const smallSigma1Expr = (chain: boolean, x: Expr): Expr => sigma(chain, x, [17, 19], 10);

/** Left-to-right sum; all constant terms are folded into one, placed where the first of them was. */
function sum(terms: Expr[]): Expr {
  let k = 0;
  let constAt = -1;
  const rest: Expr[] = [];
  for (const t of terms) {
    if (t.k === "c") {
      k = (k + t.c) | 0;
      if (constAt < 0) constAt = rest.length;
    } else rest.push(t);
  }
  if (k !== 0) rest.splice(constAt, 0, cst(k));
  let acc = rest[0] ?? cst(0);
  for (let i = 1; i < rest.length; i++) acc = add(acc, rest[i]!);
  return acc;
}

const BSWAP32 = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];
const UNPACK_LO32 = [0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23];
const UNPACK_HI32 = [8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31];
const UNPACK_LO64 = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
const UNPACK_HI64 = [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31];
const shuffle = (x: Expr, y: Expr, lanes: readonly number[]): Expr => ({ k: "f", x, y, lanes });
const bswap = (x: Expr): Expr => shuffle(x, x, BSWAP32);

// ---------------------------------------------------------------------------------------------------------------
// Function builder

/** Parameters of every kernel function. */
const P_IN = 0;
const P_OUT = 1;
const P_GROUPS = 2;
const N_PARAMS = 3;

class FnBuilder {
  readonly code: number[] = [];
  private v128Count = 0;
  constructor(
    private readonly pool: ConstPool,
    readonly i32Locals: number,
  ) {}
  /** Index of the i-th extra i32 local. */
  i32(i: number): number {
    return N_PARAMS + i;
  }
  /** A fresh v128 local. */
  v128(): number {
    return N_PARAMS + this.i32Locals + this.v128Count++;
  }
  spec(): FuncSpec {
    return {
      params: N_PARAMS,
      i32Locals: this.i32Locals,
      v128Locals: this.v128Count,
      code: this.code,
    };
  }
  private simd(op: number): void {
    this.code.push(SIMD);
    pushU32(this.code, op);
  }
  private memarg(off: number): void {
    this.code.push(4); // alignment hint: 16 bytes
    pushU32(this.code, off);
  }
  private addrOf(base: number): void {
    if (base < 0) this.code.push(OP_I32_CONST, 0);
    else this.localGet(base);
  }
  localGet(i: number): void {
    this.code.push(OP_LOCAL_GET);
    pushU32(this.code, i);
  }
  localSet(i: number): void {
    this.code.push(OP_LOCAL_SET);
    pushU32(this.code, i);
  }
  localTee(i: number): void {
    this.code.push(OP_LOCAL_TEE);
    pushU32(this.code, i);
  }
  i32Const(x: number): void {
    this.code.push(OP_I32_CONST);
    pushS32(this.code, x);
  }
  op(...bytes: number[]): void {
    pushBytes(this.code, bytes);
  }
  emit(e: Expr): void {
    switch (e.k) {
      case "c":
        this.code.push(OP_I32_CONST, 0);
        this.simd(V128_LOAD);
        this.memarg(this.pool.addr(e.c));
        return;
      case "l":
        this.localGet(e.i);
        return;
      case "m":
        this.addrOf(e.base);
        this.simd(V128_LOAD);
        this.memarg(e.off);
        return;
      case "b":
        this.emit(e.x);
        this.emit(e.y);
        this.simd(e.op);
        return;
      case "s":
        this.emit(e.x);
        this.i32Const(e.n);
        this.simd(e.op);
        return;
      case "f":
        this.emit(e.x);
        this.emit(e.y);
        this.simd(I8X16_SHUFFLE);
        pushBytes(this.code, e.lanes);
        return;
    }
  }
  /** Evaluates e into local `into`; constants stay constants unless `force`. */
  set(e: Expr, into: number, force = false): Expr {
    if (e.k === "c" && !force) return e;
    if (e.k === "l" && e.i === into) return e;
    this.emit(e);
    this.localSet(into);
    return loc(into);
  }
  store(base: number, off: number, e: Expr): void {
    this.addrOf(base);
    this.emit(e);
    this.simd(V128_STORE);
    this.memarg(off);
  }
  /** 4x4 dword transpose through 4 temporaries; returns the 4 transposed (unevaluated) expressions. */
  private transpose(r: Expr[], tmp: number[]): Expr[] {
    const t0 = this.set(shuffle(r[0]!, r[1]!, UNPACK_LO32), tmp[0]!);
    const t1 = this.set(shuffle(r[0]!, r[1]!, UNPACK_HI32), tmp[1]!);
    const t2 = this.set(shuffle(r[2]!, r[3]!, UNPACK_LO32), tmp[2]!);
    const t3 = this.set(shuffle(r[2]!, r[3]!, UNPACK_HI32), tmp[3]!);
    return [
      shuffle(t0, t2, UNPACK_LO64),
      shuffle(t0, t2, UNPACK_HI64),
      shuffle(t1, t3, UNPACK_LO64),
      shuffle(t1, t3, UNPACK_HI64),
    ];
  }
  /**
   * Words 4c..4c+3 of the 4 messages (message j at inPtr + j * stride + offset) into the locals `into`.
   */
  loadWords(stride: number, c: number, tmp: number[], into: number[], offset = 0): Expr[] {
    const rows: Expr[] = [];
    for (let j = 0; j < 4; j++) rows.push(mem(P_IN, j * stride + offset + 16 * c));
    return this.transpose(rows, tmp).map((col, i) => this.set(bswap(col), into[i]!));
  }
  /** Stores 8 state vectors as 4 big-endian 32-byte digests at outPtr + 32j. */
  storeDigests(h: Expr[], tmp: number[]): void {
    for (let half = 0; half < 2; half++) {
      const rows = this.transpose(h.slice(4 * half, 4 * half + 4), tmp);
      for (let j = 0; j < 4; j++) this.store(P_OUT, 32 * j + 16 * half, bswap(rows[j]!));
    }
  }
  /** Opens the loop over groups of 4 messages. */
  beginGroupLoop(): void {
    this.op(...OP_LOOP_VOID);
  }
  /** Closes it: advance both pointers, decrement the group count, loop while it is non-zero. */
  endGroupLoop(inStride: number): void {
    for (const [p, d] of [
      [P_IN, inStride],
      [P_OUT, 128],
    ] as const) {
      this.localGet(p);
      this.i32Const(d);
      this.op(OP_I32_ADD);
      this.localSet(p);
    }
    this.localGet(P_GROUPS);
    this.i32Const(1);
    this.op(OP_I32_SUB);
    this.localTee(P_GROUPS);
    this.op(OP_BR_IF, 0, OP_END);
  }
}

/**
 * Compression state: 8 slots (role r of round t lives in slot (r - t) & 7, so nothing is moved between rounds),
 * plus the (b ^ c) that Maj reuses from the previous round's (a ^ b).
 */
class RoundState {
  readonly slots: Expr[];
  private readonly slotLocal: number[];
  private readonly abLocal: [number, number];
  private readonly pLocal: number;
  private readonly sLocal: number;
  private readonly tLocal: number;
  private bc: Expr = cst(0);
  /** Shape of the big sigmas (see `sigma`). */
  chain = true;
  constructor(
    private readonly fn: FnBuilder,
    init: readonly number[],
  ) {
    this.slots = init.map(cst);
    this.slotLocal = init.map(() => fn.v128());
    this.abLocal = [fn.v128(), fn.v128()];
    this.pLocal = fn.v128();
    this.sLocal = fn.v128();
    this.tLocal = fn.v128();
  }
  /** Starts a new message: the state is the IV again (as constants, folded into the first rounds). */
  reset(): void {
    for (let k = 0; k < 8; k++) this.slots[k] = cst(SHA256_IV[k]!);
    this.chain = true;
  }
  /** Computes (b ^ c) for the first round of a block. */
  begin(): void {
    this.bc = this.fn.set(xor(this.slots[1]!, this.slots[2]!), this.abLocal[1]);
  }
  /** Sets slot k to e (evaluated into the slot's local). */
  assign(k: number, e: Expr, force = false): void {
    this.slots[k] = this.fn.set(e, this.slotLocal[k]!, force);
  }
  /** One round; `kw` are the terms of K[t] + W[t]. Only t mod 8 matters for the code. */
  round(t: number, kw: Expr[]): void {
    const fn = this.fn;
    const s = this.slots;
    const role = (r: number): Expr => s[(r - t) & 7]!;
    const a = role(0);
    const b = role(1);
    const d = role(3);
    const e = role(4);
    const f = role(5);
    const g = role(6);
    const h = role(7);
    const ch = xor(and(xor(f, g), e), g);
    const p = fn.set(sum([h, ...kw, ch]), this.pLocal);
    const s1 = fn.set(bigSigma1(this.chain, e), this.sLocal);
    const t1 = fn.set(add(p, s1), this.tLocal);
    this.assign((3 - t) & 7, sum([d, p, s1]));
    const ab = fn.set(xor(a, b), this.abLocal[t & 1]!);
    const maj = xor(and(ab, this.bc), b);
    const s0 = bigSigma0(this.chain, a);
    this.assign((7 - t) & 7, s0.k === "c" ? sum([s0, maj, t1]) : add(s0, add(maj, t1)));
    this.bc = ab;
  }
}

/** A message word: a variable part (a local, or nothing) plus a constant part known at generation time. */
interface Word {
  v: Expr | undefined;
  c: number;
}

/** Message schedule in a ring of 16 locals, with the constant parts of the words folded. */
class Schedule {
  readonly w: Word[] = [];
  private readonly ring: number[];
  private readonly full: [number, number];
  constructor(private readonly fn: FnBuilder) {
    this.ring = Array.from({ length: 16 }, () => fn.v128());
    this.full = [fn.v128(), fn.v128()];
  }
  /** Loads message words 4c..4c+3 (message j at inPtr + j * stride + offset). */
  load(stride: number, c: number, tmp: number[], offset = 0): void {
    const words = this.fn.loadWords(stride, c, tmp, this.ring.slice(4 * c, 4 * c + 4), offset);
    for (let i = 0; i < 4; i++) this.w[4 * c + i] = { v: words[i], c: 0 };
  }
  /** Sets message word i (0..15) to e, evaluated into its ring local. */
  setWord(i: number, e: Expr): void {
    this.w[i] = { v: this.fn.set(e, this.ring[i]!, true), c: 0 };
  }
  private fullValue(word: Word, tmp: number): Expr {
    if (word.v === undefined) return cst(word.c);
    if (word.c === 0) return word.v;
    return this.fn.set(add(word.v, cst(word.c)), tmp);
  }
  /** W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], for t >= 16. */
  compute(t: number): void {
    const w = this.w;
    const s1 = smallSigma1Expr(true, this.fullValue(w[t - 2]!, this.full[0]));
    const s0 = smallSigma0Expr(true, this.fullValue(w[t - 15]!, this.full[1]));
    const w16 = w[t - 16]!;
    const w7 = w[t - 7]!;
    const terms: Expr[] = [];
    if (w16.v) terms.push(w16.v);
    if (w7.v) terms.push(w7.v);
    terms.push(s0, s1);
    const v = sum(terms);
    const c = (w16.c + w7.c) | 0;
    w[t] =
      v.k === "c"
        ? { v: undefined, c: (v.c + c) | 0 }
        : { v: this.fn.set(v, this.ring[t & 15]!), c };
  }
  /** Folds the constant parts of W[from..to) into their ring locals (needed before a loop over the ring). */
  normalize(from: number, to: number): void {
    for (let t = from; t < to; t++) {
      const word = this.w[t]!;
      if (word.c === 0 && word.v !== undefined) continue;
      const full = word.v === undefined ? cst(word.c) : add(word.v, cst(word.c));
      this.w[t] = { v: this.fn.set(full, this.ring[t & 15]!, true), c: 0 };
    }
  }
  /** The terms of K[t] + W[t]. */
  kw(t: number): Expr[] {
    const word = this.w[t]!;
    return word.v ? [cst(SHA256_K[t]! + word.c), word.v] : [cst(SHA256_K[t]! + word.c)];
  }
}

/** Opens a loop with the i32 local `kp` counting from 0. */
function beginCountedLoop(fn: FnBuilder, kp: number): void {
  fn.i32Const(0);
  fn.localSet(kp);
  fn.op(...OP_LOOP_VOID);
}

/** Closes it: kp += step; loop while kp !== end. */
function endCountedLoop(fn: FnBuilder, kp: number, step: number, end: number): void {
  fn.localGet(kp);
  fn.i32Const(step);
  fn.op(OP_I32_ADD);
  fn.localTee(kp);
  fn.i32Const(end);
  fn.op(OP_I32_NE, OP_BR_IF, 0, OP_END);
}

/**
 * Rounds [from, 64) with the message schedule, as a loop over a body of 16 rounds (the schedule ring and the a..h
 * roles are back at their start after 16), reading K at kp. As fast as unrolling them, with much less machine code.
 */
function scheduledRoundLoop(
  fn: FnBuilder,
  st: RoundState,
  sched: Schedule,
  kp: number,
  from: number,
): void {
  sched.normalize(from - 16, from);
  beginCountedLoop(fn, kp);
  for (let t = from; t < from + 16; t++) {
    sched.compute(t);
    st.round(t, [mem(kp, K_ADDR + 16 * t), sched.w[t]!.v!]);
  }
  endCountedLoop(fn, kp, 256, 16 * (64 - from));
}

/**
 * One 64-byte message: block 1 (rounds 0..15 unrolled, `words(c)` called before round 4c to provide message words
 * 4c..4c+3, rounds 16..63 a loop over 16 rounds with the schedule), then the constant padding block as a loop over
 * 8 rounds (the a..h roles are back at their start after 8) reading a precomputed K + W table. The digest ends in
 * the state slots' locals.
 */
function compress64(
  fn: FnBuilder,
  st: RoundState,
  sched: Schedule,
  kp: number,
  words: (c: number) => void,
): void {
  st.reset();
  st.begin();
  for (let t = 0; t < 16; t++) {
    if ((t & 3) === 0) words(t >> 2);
    st.round(t, sched.kw(t));
  }
  scheduledRoundLoop(fn, st, sched, kp, 16);
  // Chaining value, also kept in the scratch area for the feed-forward after the padding block.
  for (let k = 0; k < 8; k++) {
    st.assign(k, add(st.slots[k]!, cst(SHA256_IV[k]!)));
    fn.store(-1, SCRATCH_ADDR + 16 * k, st.slots[k]!);
  }
  // Block 2, the constant padding block: 8 iterations of 8 rounds over the K + W table.
  st.chain = false;
  st.begin();
  beginCountedLoop(fn, kp);
  for (let r = 0; r < 8; r++) st.round(r, [mem(kp, KWPAD_ADDR + 16 * r)]);
  endCountedLoop(fn, kp, 128, 1024);
  for (let k = 0; k < 8; k++) st.assign(k, add(mem(-1, SCRATCH_ADDR + 16 * k), st.slots[k]!));
}

/**
 * One 32-byte message at inPtr + j * stride + offset: rounds 0..31 unrolled, so that the padding words 8..15, every
 * schedule term made of them, and what stays constant in the first rounds are folded; rounds 32..63 a loop over 16
 * rounds. The digest ends in the state slots' locals.
 */
function compress32(
  fn: FnBuilder,
  st: RoundState,
  sched: Schedule,
  kp: number,
  tmp: number[],
  stride: number,
  offset: number,
): void {
  // Padding of a one-block 32-byte message: 0x80 after the data, zeros, bit length 256.
  const pad = [0x80000000, 0, 0, 0, 0, 0, 0, 256];
  for (let i = 0; i < 8; i++) sched.w[8 + i] = { v: undefined, c: pad[i]! | 0 };
  st.reset();
  st.begin();
  for (let t = 0; t < 32; t++) {
    if (t < 8 && (t & 3) === 0) sched.load(stride, t >> 2, tmp, offset);
    if (t >= 16) sched.compute(t);
    st.round(t, sched.kw(t));
  }
  scheduledRoundLoop(fn, st, sched, kp, 32);
  for (let k = 0; k < 8; k++) st.assign(k, add(st.slots[k]!, cst(SHA256_IV[k]!)));
}

function buildH64(pool: ConstPool): FuncSpec {
  const fn = new FnBuilder(pool, 1);
  const kp = fn.i32(0); // byte offset into the K (block 1) or K + W (padding block) table in the loops
  const st = new RoundState(fn, SHA256_IV);
  const sched = new Schedule(fn);
  const tmp = [fn.v128(), fn.v128(), fn.v128(), fn.v128()];
  fn.beginGroupLoop();
  // 16 bytes of each message are loaded just before the rounds that need them.
  compress64(fn, st, sched, kp, (c) => sched.load(64, c, tmp));
  fn.storeDigests(st.slots, tmp);
  fn.endGroupLoop(256);
  return fn.spec();
}

function buildH32(pool: ConstPool): FuncSpec {
  const fn = new FnBuilder(pool, 1);
  const kp = fn.i32(0); // byte offset into the K table in the loop
  const st = new RoundState(fn, SHA256_IV);
  const sched = new Schedule(fn);
  const tmp = [fn.v128(), fn.v128(), fn.v128(), fn.v128()];
  fn.beginGroupLoop();
  compress32(fn, st, sched, kp, tmp, 32, 0);
  fn.storeDigests(st.slots, tmp);
  fn.endGroupLoop(128);
  return fn.spec();
}

/**
 * stem1: the hash of a stem holding one value, from a 64-byte record (stem 31 bytes ‖ subindex ‖ value 32 bytes).
 * leaf = H32(value); 8 levels node = H64(node ‖ 0^32) or H64(0^32 ‖ node) as subindex bit `level` is 0 or 1; then
 * H64(stem ‖ 0x00 ‖ node). The 9 64-byte messages are one loop over compress64: a digest stays in the state locals
 * and becomes the next message's words by masking (left = node & ~m | stem & f, right = node & m, where m is all
 * ones where the bit is 1 or at the stem level, f all ones at the stem level only), so nothing leaves the registers
 * between the 10 messages of a stem.
 */
function buildStem1(pool: ConstPool): FuncSpec {
  const fn = new FnBuilder(pool, 2);
  const kp = fn.i32(0);
  const level = fn.i32(1);
  const st = new RoundState(fn, SHA256_IV);
  const sched = new Schedule(fn);
  const tmp = [fn.v128(), fn.v128(), fn.v128(), fn.v128()];
  const stemLocals = Array.from({ length: 8 }, () => fn.v128());
  const bitsLocal = fn.v128();
  const sideLocal = fn.v128();
  const lastLocal = fn.v128();
  fn.beginGroupLoop();
  const stem = [
    ...fn.loadWords(64, 0, tmp, stemLocals.slice(0, 4)),
    ...fn.loadWords(64, 1, tmp, stemLocals.slice(4, 8)),
  ];
  // The subindex is the low byte of word 7; bit 8 set marks the stem level (the 9th message).
  let bits = fn.set(or(and(stem[7]!, cst(0xff)), cst(0x100)), bitsLocal, true);
  stem[7] = fn.set(and(stem[7]!, cst(0xffffff00)), stemLocals[7]!, true);
  compress32(fn, st, sched, kp, tmp, 64, 32);
  beginCountedLoop(fn, level);
  const node = st.slots.slice();
  const side: Expr = { k: "s", op: I32X4_SHR_S, x: shl(bits, 31), n: 31 };
  const m = fn.set(side, sideLocal, true);
  const last = fn.set({ k: "b", op: I32X4_EQ, x: bits, y: cst(1) }, lastLocal, true);
  for (let i = 0; i < 8; i++) {
    const left: Expr = { k: "b", op: V128_ANDNOT, x: node[i]!, y: m };
    sched.setWord(i, or(left, and(stem[i]!, last)));
  }
  for (let i = 0; i < 8; i++) sched.setWord(8 + i, and(node[i]!, m));
  bits = fn.set(shr(bits, 1), bitsLocal, true);
  compress64(fn, st, sched, kp, () => {});
  endCountedLoop(fn, level, 1, 9);
  fn.storeDigests(st.slots, tmp);
  fn.endGroupLoop(256);
  return fn.spec();
}

export interface Sha256WasmBuildOptions {
  /** Messages copied into wasm memory and hashed per kernel call; a multiple of 4, default 1024. */
  chunk?: number;
}

/** Builds the bytes of the SHA-256 SIMD module and its memory layout. */
export function buildSha256WasmModule(opts: Sha256WasmBuildOptions = {}): {
  bytes: Uint8Array;
  layout: Sha256WasmLayout;
} {
  const chunk = opts.chunk ?? 1024;
  if (!Number.isInteger(chunk) || chunk < 4 || chunk % 4 !== 0 || chunk > 1 << 16) {
    throw new RangeError(`chunk must be a multiple of 4 in [4, 65536], got ${chunk}`);
  }
  const pool = new ConstPool();
  const h64 = buildH64(pool);
  const h32 = buildH32(pool);
  const stem1 = buildStem1(pool);
  const inPtr = (pool.end + 255) & ~255;
  const outPtr = inPtr + 64 * chunk;
  const pages = Math.ceil((outPtr + 32 * chunk) / 65536);
  const bytes = assembleModule([h64, h32, stem1], ["h64", "h32", "stem1"], pages, pool.bytes());
  return { bytes, layout: { inPtr, outPtr, chunk, pages } };
}
