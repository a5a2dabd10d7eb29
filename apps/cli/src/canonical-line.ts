// The canonical build input line, decoded by a byte scanner: no string, object or JSON.parse.

/** Hex digit values by byte (-1: not a hex digit), the digits of the hex rule in either case. */
const NIBBLE = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[0x30 + i] = i;
for (let i = 0; i < 6; i++) {
  NIBBLE[0x41 + i] = 10 + i;
  NIBBLE[0x61 + i] = 10 + i;
}

/** Byte values by pair of hex digits ((first << 8) | second), -1 for anything else: one lookup
 * per output byte instead of two. */
const PAIR = new Int16Array(65536).fill(-1);
for (let hi = 0; hi < 256; hi++) {
  if (NIBBLE[hi]! < 0) continue;
  for (let lo = 0; lo < 256; lo++) {
    if (NIBBLE[lo]! >= 0) PAIR[(hi << 8) | lo] = (NIBBLE[hi]! << 4) | NIBBLE[lo]!;
  }
}

/** `{"key":"0x` … `","value":"0x` … `"}`: the canonical line, 153 bytes. */
const HEAD = Buffer.from('{"key":"0x');
const MIDDLE = Buffer.from('","value":"0x');
const TAIL = Buffer.from('"}');
export const CANONICAL_LENGTH = HEAD.length + 64 + MIDDLE.length + 64 + TAIL.length;
/** A canonical line with its newline: 154 bytes. */
export const CANONICAL_LINE_BYTES = CANONICAL_LENGTH + 1;

/** Decodes a canonical line into out[at..at+64); false (nothing promised) for anything else. */
export function parseCanonical(
  line: Uint8Array,
  start: number,
  stop: number,
  out: Uint8Array,
  at: number,
): boolean {
  if (stop - start !== CANONICAL_LENGTH) return false;
  let p = start;
  for (let i = 0; i < HEAD.length; i++) if (line[p + i] !== HEAD[i]) return false;
  p += HEAD.length;
  if (!decode32(line, p, out, at)) return false;
  p += 64;
  for (let i = 0; i < MIDDLE.length; i++) if (line[p + i] !== MIDDLE[i]) return false;
  p += MIDDLE.length;
  if (!decode32(line, p, out, at + 32)) return false;
  p += 64;
  return line[p] === TAIL[0] && line[p + 1] === TAIL[1];
}

function decode32(src: Uint8Array, p: number, out: Uint8Array, at: number): boolean {
  let bad = 0;
  for (let i = 0; i < 32; i++) {
    const byte = PAIR[(src[p + 2 * i]! << 8) | src[p + 2 * i + 1]!]!;
    bad |= byte;
    out[at + i] = byte;
  }
  return bad >= 0;
}
