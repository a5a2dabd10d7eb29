/**
 * 32-byte (8-word) copies between Uint32 views, unrolled by hand: in the hashing loops, which
 * run them several times per node, a word loop costs about twice as much.
 */
/** to[t..t+8) = from[f..f+8). */
export function copy8(from: Uint32Array, f: number, to: Uint32Array, t: number): void {
  to[t] = from[f]!;
  to[t + 1] = from[f + 1]!;
  to[t + 2] = from[f + 2]!;
  to[t + 3] = from[f + 3]!;
  to[t + 4] = from[f + 4]!;
  to[t + 5] = from[f + 5]!;
  to[t + 6] = from[f + 6]!;
  to[t + 7] = from[f + 7]!;
}

export function copy16(from: Uint32Array, f: number, to: Uint32Array, t: number): void {
  copy8(from, f, to, t);
  copy8(from, f + 8, to, t + 8);
}

export function zero8(to: Uint32Array, t: number): void {
  to[t] = 0;
  to[t + 1] = 0;
  to[t + 2] = 0;
  to[t + 3] = 0;
  to[t + 4] = 0;
  to[t + 5] = 0;
  to[t + 6] = 0;
  to[t + 7] = 0;
}
