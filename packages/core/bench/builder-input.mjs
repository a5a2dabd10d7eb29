// Sorted synthetic stems for the builder benchmarks: stem i starts with a 48-bit number drawn
// uniformly from the i-th of n equal slices (so the stream is sorted and evenly spread, like
// hashed keys), the other 25 stem bytes and the value are pseudo-random. One value per stem, at
// subindex 0 (state-actor's groundtruth shape).

/** xorshift32 filling whole 32-bit words; fast enough not to show in the figures. */
export function words(seed) {
  let x = seed >>> 0 || 0x9e3779b9;
  return (out) => {
    for (let i = 0; i < out.length; i++) {
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      out[i] = x;
    }
  };
}

/** Writes stem i of n into out[at..at+31) and its value into value (32 bytes). */
export function makeStemSource(n, seed = 1) {
  const fill = words(seed);
  const scratch = new Uint32Array(15);
  const bytes = new Uint8Array(scratch.buffer);
  return (i, stem, stemAt, value, valueAt) => {
    fill(scratch);
    const x = Math.floor(((i + scratch[0] / 2 ** 32) / n) * 2 ** 48);
    stem[stemAt] = Math.floor(x / 2 ** 40) & 0xff;
    stem[stemAt + 1] = Math.floor(x / 2 ** 32) & 0xff;
    stem[stemAt + 2] = (x >>> 24) & 0xff;
    stem[stemAt + 3] = (x >>> 16) & 0xff;
    stem[stemAt + 4] = (x >>> 8) & 0xff;
    stem[stemAt + 5] = x & 0xff;
    for (let b = 0; b < 25; b++) stem[stemAt + 6 + b] = bytes[4 + b];
    for (let b = 0; b < 32; b++) value[valueAt + b] = bytes[29 + (b % 31)] ^ b;
  };
}
