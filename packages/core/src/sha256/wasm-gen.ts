// Generator of the WebAssembly SIMD128 SHA-256 module: a tiny binary emitter plus an instruction-stream generator that
// unrolls the rounds. It runs once when the wasm kernel is created (about a millisecond) and is deterministic.
//
// Lane layout: lane j of every v128 value belongs to message j of a group of 4. Messages are loaded as 16-byte chunks,
// byte-swapped with i8x16.shuffle and transposed 4x4 with dword/qword unpack shuffles (V8 emits punpck*); the output
// goes through the reverse transpose. All 32-bit constants (K, IV, folded constants) are stored pre-splatted in linear
// memory and read with v128.load at fixed addresses.
//
// Kernels (exported functions, all `(inPtr, outPtr, groups) -> ()`, `groups` >= 1):
//   h64: 64-byte messages at inPtr + 64i -> digests at outPtr + 32i. Block 1 is unrolled; the constant padding block
//        is an 8-round loop (the a..h roles come back to their start after 8 rounds) with K + W precomputed, which
//        keeps the machine code small enough for the op cache.
//   h32: 32-byte messages at inPtr + 32i -> digests at outPtr + 32i. One fully unrolled block; the padding words
//        8..15 and everything computed from them (and from the IV in the first rounds) is folded at generation time.

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

/** K[t] + W[t] of the constant second block of every 64-byte message (0x80, zeros, bit length 512). */
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

class ByteSink {
  readonly b: number[] = [];
  u8(x: number): this {
    this.b.push(x & 0xff);
    return this;
  }
  u32(x: number): this {
    let v = x >>> 0;
    do {
      const byte = v & 0x7f;
      v >>>= 7;
      this.b.push(v === 0 ? byte : byte | 0x80);
    } while (v !== 0);
    return this;
  }
  s32(x: number): this {
    let v = x | 0;
    for (;;) {
      const byte = v & 0x7f;
      v >>= 7;
      const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
      this.b.push(done ? byte : byte | 0x80);
      if (done) return this;
    }
  }
  bytes(xs: ArrayLike<number>): this {
    for (let i = 0; i < xs.length; i++) this.b.push(xs[i]! & 0xff);
    return this;
  }
  vec(xs: ArrayLike<number>): this {
    return this.u32(xs.length).bytes(xs);
  }
  name(s: string): this {
    const codes: number[] = [];
    for (let i = 0; i < s.length; i++) codes.push(s.charCodeAt(i));
    return this.vec(codes);
  }
}

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
const OP_I32_LT_S = 0x48;
const OP_I32_ADD = 0x6a;
const OP_I32_STORE = 0x36;
const OP_IF_VOID = [0x04, 0x40];
const OP_I32_SUB = 0x6b;
// SIMD opcodes (prefix 0xfd).
const SIMD = 0xfd;
const V128_LOAD = 0x00;
const V128_STORE = 0x0b;
const I8X16_SHUFFLE = 0x0d;
const I32X4_SPLAT = 0x11;
const V128_AND = 0x4e;
const V128_OR = 0x50;
const V128_XOR = 0x51;
const I32X4_SHL = 0xab;
const I32X4_SHR_U = 0xad;
const I32X4_ADD = 0xae;
const I32X4_MUL = 0xb5;

function section(out: ByteSink, id: number, body: ByteSink): void {
  out.u8(id).u32(body.b.length).bytes(body.b);
}

interface FuncSpec {
  /** Number of i32 params (all functions return nothing). */
  params: number;
  i32Locals: number;
  v128Locals: number;
  code: number[];
}

function assembleModule(
  funcs: FuncSpec[],
  exports: string[],
  memPages: number,
  data: Uint8Array,
): Uint8Array {
  const out = new ByteSink().bytes([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
  const types = new ByteSink().u32(funcs.length);
  for (const f of funcs) {
    types.u8(0x60).u32(f.params);
    for (let i = 0; i < f.params; i++) types.u8(I32);
    types.u32(0);
  }
  section(out, 1, types);
  const fsec = new ByteSink().u32(funcs.length);
  for (let i = 0; i < funcs.length; i++) fsec.u32(i);
  section(out, 3, fsec);
  section(out, 5, new ByteSink().u32(1).u8(0x00).u32(memPages));
  const exp = new ByteSink().u32(funcs.length + 1);
  exp.name("memory").u8(0x02).u32(0);
  for (let i = 0; i < funcs.length; i++) exp.name(exports[i]!).u8(0x00).u32(i);
  section(out, 7, exp);
  const code = new ByteSink().u32(funcs.length);
  for (const f of funcs) {
    const body = new ByteSink();
    const groups: [number, number][] = [];
    if (f.i32Locals > 0) groups.push([f.i32Locals, I32]);
    if (f.v128Locals > 0) groups.push([f.v128Locals, V128]);
    body.u32(groups.length);
    for (const [n, t] of groups) body.u32(n).u8(t);
    body.bytes(f.code).u8(OP_END);
    code.u32(body.b.length).bytes(body.b);
  }
  section(out, 10, code);
  const dsec = new ByteSink().u32(1).u8(0x00).u8(OP_I32_CONST).s32(0).u8(OP_END).vec(data);
  section(out, 11, dsec);
  return Uint8Array.from(out.b);
}

/** A minimal module whose only function uses v128 (i32x4.splat); `WebAssembly.validate` of it detects SIMD128. */
export function simdProbeModule(): Uint8Array {
  const out = new ByteSink().bytes([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
  section(out, 1, new ByteSink().u32(1).u8(0x60).u32(0).u32(1).u8(V128));
  section(out, 3, new ByteSink().u32(1).u32(0));
  const body = new ByteSink()
    .u32(0)
    .u8(OP_I32_CONST)
    .s32(0)
    .u8(SIMD)
    .u32(I32X4_SPLAT)
    .u8(OP_END);
  section(out, 10, new ByteSink().u32(1).u32(body.b.length).bytes(body.b));
  return Uint8Array.from(out.b);
}

// ---------------------------------------------------------------------------------------------------------------
// Constant pool: 32-bit constants stored splatted (16 bytes each) in linear memory.

/** Memory layout of the generated module (byte addresses). */
export interface Sha256WasmLayout {
  /** Start of the input area (messages are copied here by the wrapper). */
  inPtr: number;
  /** Start of the output area. */
  outPtr: number;
  /** Messages per kernel call (multiple of 4). */
  chunk: number;
  /** Linear memory size in 64 KiB pages. */
  pages: number;
}

const K_ADDR = 0;
const KWPAD_ADDR = K_ADDR + 64 * 16;
const IV_ADDR = KWPAD_ADDR + 64 * 16;
const SCRATCH_ADDR = IV_ADDR + 8 * 16;
const ANCHOR_ADDR = SCRATCH_ADDR + 8 * 16;
const W_ADDR = ANCHOR_ADDR + 16;
const KW1_ADDR = W_ADDR + 64 * 16;
const POOL_ADDR = KW1_ADDR + 64 * 16;

class ConstPool {
  private readonly addrs = new Map<number, number>();
  private readonly values: number[] = [];
  constructor() {
    for (let t = 0; t < 64; t++) this.fixed(K_ADDR + 16 * t, SHA256_K[t]!);
    const kw = paddingBlockKw();
    for (let t = 0; t < 64; t++) this.fixed(KWPAD_ADDR + 16 * t, kw[t]!);
    for (let k = 0; k < 8; k++) this.fixed(IV_ADDR + 16 * k, SHA256_IV[k]!);
  }
  private fixed(addr: number, value: number): void {
    this.values[addr >> 4] = value | 0;
    if (!this.addrs.has(value | 0)) this.addrs.set(value | 0, addr);
  }
  addr(value: number): number {
    const v = value | 0;
    let a = this.addrs.get(v);
    if (a === undefined) {
      if (this.values.length < POOL_ADDR >> 4) this.values.length = POOL_ADDR >> 4;
      a = 16 * this.values.length;
      this.values.push(v);
      this.addrs.set(v, a);
    }
    return a;
  }
  /** The bytes of the data segment at address 0: every constant splatted to 4 lanes (little-endian i32). */
  bytes(): Uint8Array {
    const out = new Uint8Array(16 * this.values.length);
    const dv = new DataView(out.buffer);
    for (let i = 0; i < this.values.length; i++) {
      const v = this.values[i] ?? 0;
      for (let l = 0; l < 4; l++) dv.setInt32(16 * i + 4 * l, v, true);
    }
    return out;
  }
  get end(): number {
    return 16 * this.values.length;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Expression trees over v128 values (4 lanes of i32), with generation-time constant folding.

type Expr =
  | { readonly k: "c"; readonly c: number } // constant splatted to 4 lanes
  | { readonly k: "l"; readonly i: number } // local
  | { readonly k: "m"; readonly base: number; readonly off: number } // v128.load (local base, or -1 for address 0)
  | { readonly k: "b"; readonly op: number; readonly x: Expr; readonly y: Expr } // binary SIMD op
  | { readonly k: "s"; readonly op: number; readonly x: Expr; readonly n: number } // shift by immediate
  | { readonly k: "f"; readonly x: Expr; readonly y: Expr; readonly lanes: readonly number[] }; // i8x16.shuffle

const cst = (c: number): Expr => ({ k: "c", c: c | 0 });
const loc = (i: number): Expr => ({ k: "l", i });

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
function shl(x: Expr, n: number): Expr {
  if (x.k === "c") return cst(x.c << n);
  if (style.mul) return { k: "b", op: I32X4_MUL, x, y: cst(1 << n) };
  return { k: "s", op: I32X4_SHL, x, n };
}
function shr(x: Expr, n: number): Expr {
  return x.k === "c" ? cst(x.c >>> n) : { k: "s", op: I32X4_SHR_U, x, n };
}
const rot = (x: Expr, n: number): Expr => or(shr(x, n), shl(x, 32 - n));
/** Code-shape knobs of one part of a kernel (see Sha256WasmOptions). */
export interface Sha256WasmStyle {
  /** Sigma functions as one left-deep xor chain of shifts instead of a tree of rotations. */
  chain?: boolean;
  /** Left shifts as i32x4.mul by a power of two. */
  mul?: boolean;
  /** Rounds between scheduling barriers (0: none). */
  be?: number;
  /** Barrier kind: 1 = branch only, 2 = anchor store only, 3 = both. */
  bk?: number;
}
let style: Sha256WasmStyle = {};
/** x >>> r1 ^ x <<< ... : xor of rotations r (and, for the small sigmas, a plain shift s). */
function sigma(x: Expr, r: readonly number[], s?: number): Expr {
  if (!style.chain || x.k === "c") {
    let acc = xor(rot(x, r[0]!), rot(x, r[1]!));
    acc = xor(acc, s === undefined ? rot(x, r[2]!) : shr(x, s));
    return acc;
  }
  let acc = shr(x, r[0]!);
  acc = xor(acc, shl(x, 32 - r[0]!));
  for (let i = 1; i < r.length; i++) {
    acc = xor(acc, shr(x, r[i]!));
    acc = xor(acc, shl(x, 32 - r[i]!));
  }
  if (s !== undefined) acc = xor(acc, shr(x, s));
  return acc;
}
const bigSigma0 = (x: Expr): Expr => sigma(x, [2, 13, 22]);
const bigSigma1 = (x: Expr): Expr => sigma(x, [6, 11, 25]);
const sigma0 = (x: Expr): Expr => sigma(x, [7, 18], 3);
const sigma1 = (x: Expr): Expr => sigma(x, [17, 19], 10);

/** Sum of terms; constant terms are folded into one, placed where the first constant term was. */
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
  if (rest.length === 0) return cst(0);
  let acc = rest[0]!;
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

const P_IN = 0;
const P_OUT = 1;
const P_GROUPS = 2;

class FnBuilder {
  readonly code: number[] = [];
  private v128Count = 0;
  constructor(
    private readonly pool: ConstPool,
    readonly i32Locals: number,
  ) {}
  /** A fresh v128 local. */
  v128(): number {
    return 3 + this.i32Locals + this.v128Count++;
  }
  get v128Locals(): number {
    return this.v128Count;
  }
  op(...bytes: number[]): void {
    for (const b of bytes) this.code.push(b);
  }
  simd(op: number): void {
    this.code.push(SIMD);
    const s = new ByteSink().u32(op);
    for (const b of s.b) this.code.push(b);
  }
  u32(x: number): void {
    for (const b of new ByteSink().u32(x).b) this.code.push(b);
  }
  i32const(x: number): void {
    this.code.push(OP_I32_CONST);
    for (const b of new ByteSink().s32(x).b) this.code.push(b);
  }
  memarg(off: number): void {
    this.u32(4); // alignment hint: 16 bytes
    this.u32(off);
  }
  emit(e: Expr): void {
    switch (e.k) {
      case "c":
        this.i32const(0);
        this.simd(V128_LOAD);
        this.memarg(this.pool.addr(e.c));
        return;
      case "l":
        this.op(OP_LOCAL_GET);
        this.u32(e.i);
        return;
      case "m":
        if (e.base < 0) this.i32const(0);
        else {
          this.op(OP_LOCAL_GET);
          this.u32(e.base);
        }
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
        this.i32const(e.n);
        this.simd(e.op);
        return;
      case "f":
        this.emit(e.x);
        this.emit(e.y);
        this.simd(I8X16_SHUFFLE);
        for (const l of e.lanes) this.code.push(l);
        return;
    }
  }
  /** Evaluates e into local `into` (constants and that local itself are returned unchanged). */
  set(e: Expr, into: number): Expr {
    if (e.k === "c") return e;
    if (e.k === "l" && e.i === into) return e;
    this.emit(e);
    this.op(OP_LOCAL_SET);
    this.u32(into);
    return loc(into);
  }
  storeAt(base: number, off: number, e: Expr): void {
    this.store(base, off, e);
  }
  store(base: number, off: number, e: Expr): void {
    this.op(OP_LOCAL_GET);
    this.u32(base);
    this.emit(e);
    this.simd(V128_STORE);
    this.memarg(off);
  }
  storeAbs(addr: number, e: Expr): void {
    this.i32const(0);
    this.emit(e);
    this.simd(V128_STORE);
    this.memarg(addr);
  }
  /** Transposes 4 vectors (4x4 dwords) through 4 temporaries; returns the 4 transposed (unevaluated) expressions. */
  transpose(r: Expr[], tmp: number[]): Expr[] {
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
  /** Loads 4 chunks of 16 bytes (one per message, message j at inPtr + j * stride + off) as 4 word vectors. */
  loadWords(stride: number, off: number, tmp: number[], into: number[]): Expr[] {
    const rows: Expr[] = [];
    for (let j = 0; j < 4; j++) rows.push({ k: "m", base: P_IN, off: j * stride + off });
    const cols = this.transpose(rows, tmp);
    return cols.map((c, i) => this.set(bswap(c), into[i]!));
  }
  /** Stores 8 state vectors as 4 big-endian 32-byte digests at outPtr + 32j. */
  storeDigests(h: Expr[], tmp: number[]): void {
    for (let half = 0; half < 2; half++) {
      const rows = this.transpose(h.slice(4 * half, 4 * half + 4), tmp);
      for (let j = 0; j < 4; j++) this.store(P_OUT, 32 * j + 16 * half, bswap(rows[j]!));
    }
  }
  /**
   * A scheduling barrier: a branch V8 cannot prove dead (`groups < 0`, never true), whose arm has a side effect so
   * that the diamond is not folded away. TurboFan places pure nodes in the latest block that dominates their uses,
   * so a barrier keeps the rounds after it from being interleaved with the ones before (which otherwise raises the
   * register pressure a lot).
   */
  barrier(kind: number, anchor: Expr): void {
    if (kind & 2) this.storeAbs(ANCHOR_ADDR, anchor);
    if (!(kind & 1)) return;
    this.op(OP_LOCAL_GET);
    this.u32(P_GROUPS);
    this.i32const(0);
    this.op(OP_I32_LT_S, ...OP_IF_VOID);
    this.i32const(0);
    this.i32const(0);
    this.op(OP_I32_STORE);
    this.u32(2);
    this.u32(SCRATCH_ADDR);
    this.op(OP_END);
  }
  /** Ends the per-group loop: advance the pointers, decrement the group count, loop while it is non-zero. */
  endGroupLoop(inStride: number): void {
    for (const [p, d] of [
      [P_IN, inStride],
      [P_OUT, 128],
    ] as const) {
      this.op(OP_LOCAL_GET);
      this.u32(p);
      this.i32const(d);
      this.op(OP_I32_ADD, OP_LOCAL_SET);
      this.u32(p);
    }
    this.op(OP_LOCAL_GET);
    this.u32(P_GROUPS);
    this.i32const(1);
    this.op(OP_I32_SUB, OP_LOCAL_TEE);
    this.u32(P_GROUPS);
    this.op(OP_BR_IF, 0, OP_END);
  }
}

/** Round state: 8 slots (role r of round t is slot (r - t) & 7) plus the (b ^ c) carried for Maj. */
class RoundState {
  readonly slots: Expr[];
  readonly slotLocal: number[];
  readonly abLocal: [number, number];
  readonly tLocal: number;
  bc: Expr = cst(0);
  constructor(
    private readonly fn: FnBuilder,
    init: Expr[],
  ) {
    this.slots = init.slice();
    this.slotLocal = init.map(() => fn.v128());
    this.abLocal = [fn.v128(), fn.v128()];
    this.tLocal = fn.v128();
  }
  /** Computes (b ^ c) for round `t0` (must be called at the start of a block). */
  begin(): void {
    this.bc = this.fn.set(xor(this.slots[1]!, this.slots[2]!), this.abLocal[1]);
  }
  /** Evaluates every slot into its local (needed before a loop). */
  materialize(): void {
    for (let k = 0; k < 8; k++) {
      const e = this.slots[k]!;
      const into = this.slotLocal[k]!;
      if (e.k === "l" && e.i === into) continue;
      this.fn.emit(e);
      this.fn.op(OP_LOCAL_SET);
      this.fn.u32(into);
      this.slots[k] = loc(into);
    }
  }
  /** One round; `kw` are the terms of K[t] + W[t]. `t` only matters modulo 8. */
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
    const t1 = fn.set(sum([h, ...kw, ch, bigSigma1(e)]), this.tLocal);
    s[(3 - t) & 7] = fn.set(sum([d, t1]), this.slotLocal[(3 - t) & 7]!);
    const ab = fn.set(xor(a, b), this.abLocal[t & 1]!);
    const maj = xor(and(ab, this.bc), b);
    s[(7 - t) & 7] = fn.set(sum([t1, bigSigma0(a), maj]), this.slotLocal[(7 - t) & 7]!);
    this.bc = ab;
  }
}

/** Message words: variable part (a local or nothing) plus a constant part known at generation time. */
interface Word {
  v: Expr | undefined;
  c: number;
}

class Schedule {
  readonly w: Word[] = [];
  private readonly ring: number[];
  private readonly full: [number, number];
  constructor(private readonly fn: FnBuilder) {
    this.ring = Array.from({ length: 16 }, () => fn.v128());
    this.full = [fn.v128(), fn.v128()];
  }
  ringLocals(from: number, n: number): number[] {
    return this.ring.slice(from, from + n);
  }
  private fullValue(word: Word, tmp: number): Expr {
    if (word.v === undefined) return cst(word.c);
    if (word.c === 0) return word.v;
    return this.fn.set(add(word.v, cst(word.c)), tmp);
  }
  /** Computes W[t] (t >= 16) into the ring. */
  compute(t: number): void {
    const w = this.w;
    const s1 = sigma1(this.fullValue(w[t - 2]!, this.full[0]));
    const s0 = sigma0(this.fullValue(w[t - 15]!, this.full[1]));
    const a = w[t - 16]!;
    const b = w[t - 7]!;
    const terms: Expr[] = [];
    if (a.v) terms.push(a.v);
    if (b.v) terms.push(b.v);
    terms.push(s0, s1);
    const v = sum(terms);
    const c = (a.c + b.c) | 0;
    if (v.k === "c") w[t] = { v: undefined, c: (v.c + c) | 0 };
    else w[t] = { v: this.fn.set(v, this.ring[t & 15]!), c };
  }
  /** Terms of K[t] + W[t]. */
  kw(t: number): Expr[] {
    const word = this.w[t]!;
    const out: Expr[] = [cst(SHA256_K[t]! + word.c)];
    if (word.v) out.push(word.v);
    return out;
  }
}

export interface Sha256WasmOptions {
  /** Messages per kernel call; multiple of 4. Default 1024. */
  chunk?: number;
  /** Unroll the padding block of 64-byte messages instead of an 8-round loop (bigger code). Default false. */
  unrollPaddingBlock?: boolean;
  h32?: Sha256WasmStyle;
  /** h64 block 1 rolled: message schedule (+K) computed into memory by a loop, then the same 8-round loop. */
  rolled1?: boolean;
  b1?: Sha256WasmStyle;
  b2?: Sha256WasmStyle;
}

/** 64 rounds as a loop of 8, reading K + W from a table at `table` (16 bytes per round). */
function roundLoop(fn: FnBuilder, st: RoundState, table: number, kp: number, be: number, bk: number): void {
  st.materialize();
  st.begin();
  fn.i32const(0);
  fn.op(OP_LOCAL_SET);
  fn.u32(kp);
  fn.op(...OP_LOOP_VOID);
  for (let r = 0; r < 8; r++) {
    st.round(r, [{ k: "m", base: kp, off: table + 16 * r }]);
    if (be > 0 && r % be === be - 1 && r !== 7) fn.barrier(bk, st.slots[(7 - r) & 7]!);
  }
  st.materialize();
  fn.op(OP_LOCAL_GET);
  fn.u32(kp);
  fn.i32const(128);
  fn.op(OP_I32_ADD, OP_LOCAL_TEE);
  fn.u32(kp);
  fn.i32const(1024);
  fn.op(OP_I32_NE, OP_BR_IF, 0, OP_END);
}

/** W[16..63] into the W table and K + W[0..63] into the KW1 table, as a loop of 8 words. */
function scheduleLoop(fn: FnBuilder, kp: number, tmpW: number[]): void {
  // Rounds 16..63: kp = 16 * (t0 - 16), t0 = 16, 24, ..., 56.
  fn.i32const(0);
  fn.op(OP_LOCAL_SET);
  fn.u32(kp);
  fn.op(...OP_LOOP_VOID);
  const wAt = (rel: number): Expr => ({ k: "m", base: kp, off: W_ADDR + 16 * (16 + rel) });
  const cur: Expr[] = [];
  for (let r = 0; r < 8; r++) {
    const w2 = r >= 2 ? cur[r - 2]! : fn.set(wAt(r - 2), tmpW[8]!);
    const w7 = r >= 7 ? cur[r - 7]! : wAt(r - 7);
    const w15 = fn.set(wAt(r - 15), tmpW[9]!);
    const w16 = wAt(r - 16);
    const w = fn.set(sum([w16, w7, sigma0(w15), sigma1(w2)]), tmpW[r]!);
    cur.push(w);
    fn.storeAt(kp, W_ADDR + 16 * (16 + r), w);
    fn.storeAt(kp, KW1_ADDR + 16 * (16 + r), add(w, { k: "m", base: kp, off: K_ADDR + 16 * (16 + r) }));
  }
  fn.op(OP_LOCAL_GET);
  fn.u32(kp);
  fn.i32const(128);
  fn.op(OP_I32_ADD, OP_LOCAL_TEE);
  fn.u32(kp);
  fn.i32const(768);
  fn.op(OP_I32_NE, OP_BR_IF, 0, OP_END);
}

function buildH64(pool: ConstPool, opts: Sha256WasmOptions): FuncSpec {
  style = opts.b1 ?? {};
  let be = style.be ?? 0;
  let bk = style.bk ?? 1;
  const KP = 3; // i32 local: offset into the K+W table in the padding-block loop
  const fn = new FnBuilder(pool, 1);
  const st = new RoundState(fn, SHA256_IV.map(cst));
  const sched = new Schedule(fn);
  const tmp = [fn.v128(), fn.v128(), fn.v128(), fn.v128()];
  fn.op(...OP_LOOP_VOID);
  // Block 1: the message, loaded 16 bytes at a time just before the rounds that need it.
  if (opts.rolled1) {
    const tmpW = Array.from({ length: 10 }, () => fn.v128());
    for (let c = 0; c < 4; c++) {
      const words = fn.loadWords(64, 16 * c, tmp, sched.ringLocals(4 * c, 4));
      for (let i = 0; i < 4; i++) {
        const t = 4 * c + i;
        fn.storeAbs(W_ADDR + 16 * t, words[i]!);
        fn.storeAbs(KW1_ADDR + 16 * t, add(words[i]!, cst(SHA256_K[t]!)));
      }
    }
    scheduleLoop(fn, KP, tmpW);
    roundLoop(fn, st, KW1_ADDR, KP, be, bk);
  } else st.begin();
  for (let t = 0; t < ((opts as { skip1?: boolean }).skip1 || opts.rolled1 ? 0 : 64); t++) {
    if (t < 16 && (t & 3) === 0) {
      const words = fn.loadWords(64, 4 * t, tmp, sched.ringLocals(t, 4));
      for (let i = 0; i < 4; i++) sched.w[t + i] = { v: words[i], c: 0 };
    }
    if (t >= 16) sched.compute(t);
    st.round(t, sched.kw(t));
    if (be > 0 && t % be === be - 1) fn.barrier(bk, st.slots[(7 - t) & 7]!);
  }
  if ((opts as { skip1?: boolean }).skip1) {
    for (let k = 0; k < 8; k++) st.slots[k] = fn.set({ k: "m", base: P_IN, off: 16 * k }, st.slotLocal[k]!);
  }
  // Chaining value: kept in the scratch area for the feed-forward after the padding block.
  for (let k = 0; k < 8; k++) {
    st.slots[k] = fn.set(add(st.slots[k]!, cst(SHA256_IV[k]!)), st.slotLocal[k]!);
    fn.storeAbs(SCRATCH_ADDR + 16 * k, st.slots[k]!);
  }
  // Block 2: constant padding block, K + W read from the precomputed table.
  style = opts.b2 ?? {};
  be = style.be ?? 0;
  bk = style.bk ?? 1;
  st.begin();
  if ((opts as { skip2?: boolean }).skip2) {
  } else if (opts.unrollPaddingBlock) {
    for (let t = 0; t < 64; t++) {
      st.round(t, [{ k: "m", base: -1, off: KWPAD_ADDR + 16 * t }]);
      if (be > 0 && t % be === be - 1) fn.barrier(bk, st.slots[(7 - t) & 7]!);
    }
  } else {
    fn.i32const(0);
    fn.op(OP_LOCAL_SET);
    fn.u32(KP);
    fn.op(...OP_LOOP_VOID);
    for (let r = 0; r < 8; r++) {
      st.round(r, [{ k: "m", base: KP, off: KWPAD_ADDR + 16 * r }]);
      if (be > 0 && r % be === be - 1 && r !== 7) fn.barrier(bk, st.slots[(7 - r) & 7]!);
    }
    st.materialize();
    fn.op(OP_LOCAL_GET);
    fn.u32(KP);
    fn.i32const(128);
    fn.op(OP_I32_ADD, OP_LOCAL_TEE);
    fn.u32(KP);
    fn.i32const(1024);
    fn.op(OP_I32_NE, OP_BR_IF, 0, OP_END);
  }
  const h: Expr[] = [];
  for (let k = 0; k < 8; k++) {
    h.push(
      fn.set(add({ k: "m", base: -1, off: SCRATCH_ADDR + 16 * k }, st.slots[k]!), st.slotLocal[k]!),
    );
  }
  fn.storeDigests(h, tmp);
  fn.endGroupLoop(256);
  return { params: 3, i32Locals: fn.i32Locals, v128Locals: fn.v128Locals, code: fn.code };
}

function buildH32(pool: ConstPool, opts: Sha256WasmOptions): FuncSpec {
  style = opts.h32 ?? {};
  const be = style.be ?? 0;
  const bk = style.bk ?? 1;
  const fn = new FnBuilder(pool, 0);
  const st = new RoundState(fn, SHA256_IV.map(cst));
  const sched = new Schedule(fn);
  const tmp = [fn.v128(), fn.v128(), fn.v128(), fn.v128()];
  fn.op(...OP_LOOP_VOID);
  const pad = [0x80000000, 0, 0, 0, 0, 0, 0, 256];
  for (let i = 0; i < 8; i++) sched.w[8 + i] = { v: undefined, c: pad[i]! | 0 };
  st.begin();
  for (let t = 0; t < 64; t++) {
    if (t < 8 && (t & 3) === 0) {
      const words = fn.loadWords(32, 4 * t, tmp, sched.ringLocals(t, 4));
      for (let i = 0; i < 4; i++) sched.w[t + i] = { v: words[i], c: 0 };
    }
    if (t >= 16) sched.compute(t);
    st.round(t, sched.kw(t));
    if (be > 0 && t % be === be - 1) fn.barrier(bk, st.slots[(7 - t) & 7]!);
  }
  const h: Expr[] = [];
  for (let k = 0; k < 8; k++) h.push(fn.set(add(st.slots[k]!, cst(SHA256_IV[k]!)), st.slotLocal[k]!));
  fn.storeDigests(h, tmp);
  fn.endGroupLoop(128);
  return { params: 3, i32Locals: fn.i32Locals, v128Locals: fn.v128Locals, code: fn.code };
}

/** Builds the SHA-256 SIMD module bytes and its memory layout. */
export function buildSha256WasmModule(opts: Sha256WasmOptions = {}): {
  bytes: Uint8Array;
  layout: Sha256WasmLayout;
} {
  const chunk = opts.chunk ?? 1024;
  if (!(chunk >= 4 && chunk % 4 === 0)) throw new RangeError("chunk must be a positive multiple of 4");
  const pool = new ConstPool();
  const h64 = buildH64(pool, opts);
  const h32 = buildH32(pool, opts);
  const inPtr = (pool.end + 255) & ~255;
  const outPtr = inPtr + 64 * chunk;
  const pages = Math.ceil((outPtr + 32 * chunk) / 65536);
  const bytes = assembleModule([h64, h32], ["h64", "h32"], pages, pool.bytes());
  return { bytes, layout: { inPtr, outPtr, chunk, pages } };
}
