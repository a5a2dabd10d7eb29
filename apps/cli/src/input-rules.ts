/**
 * The input rules of every `bintrie` command, in one place so every reader of user input
 * (argument parsers, the JSON-lines entry reader, genesis and preimage files, and faster
 * parsers of the same formats) applies the same ones:
 *
 * - hex is `0x` (lowercase x) followed by hex digits of either case; `0X…` and bare digits are
 *   refused;
 * - a UTF-8 byte order mark at the start of a file or stream is ignored;
 * - a `build` input without a single entry is an error ("no entries"), not an empty tree.
 */

/** The hex rule in words, for help texts and error messages. */
export const HEX_RULE = "0x followed by hex digits (lowercase x; digits in either case)";

const NIBBLE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) NIBBLE[0x30 + i] = i;
for (let i = 0; i < 6; i++) {
  NIBBLE[0x41 + i] = 10 + i;
  NIBBLE[0x61 + i] = 10 + i;
}

/** Whether `text` starts with the `0x` prefix of the hex rule. */
export function hasHexPrefix(text: string): boolean {
  return text.charCodeAt(0) === 0x30 && text.charCodeAt(1) === 0x78;
}

/** Whether `text` is hex by the rule: `0x` and an even number of hex digits (any count). */
export function isHexText(text: string): boolean {
  return hasHexPrefix(text) && /^[0-9a-fA-F]*$/.test(text.slice(2)) && text.length % 2 === 0;
}

/**
 * Decodes `0x` + exactly 2*size hex digits from `text` into out[offset..offset+size).
 * Returns false (out partly written) for anything else; allocates nothing.
 */
export function decodeHexInto(
  text: string,
  size: number,
  out: Uint8Array,
  offset: number,
): boolean {
  if (text.length !== 2 + 2 * size || !hasHexPrefix(text)) return false;
  for (let i = 0; i < size; i++) {
    const a = text.charCodeAt(2 + 2 * i);
    const b = text.charCodeAt(3 + 2 * i);
    if (a > 0x7f || b > 0x7f) return false;
    const hi = NIBBLE[a]!;
    const lo = NIBBLE[b]!;
    if (hi < 0 || lo < 0) return false;
    out[offset + i] = (hi << 4) | lo;
  }
  return true;
}

/** The UTF-8 encoding of U+FEFF, the byte order mark. */
const UTF8_BOM = Uint8Array.of(0xef, 0xbb, 0xbf);

/** What `bomLength` returns while the input's first bytes could still be a cut BOM. */
export const BOM_UNDECIDED = -1;

/**
 * Bytes to skip at the start of the input, given its first bytes: 3 for a UTF-8 BOM, 0 for none,
 * or BOM_UNDECIDED when fewer than 3 bytes arrived and they are a BOM's start (read more first).
 */
export function bomLength(first: Uint8Array): number {
  const n = Math.min(first.length, 3);
  for (let i = 0; i < n; i++) if (first[i] !== UTF8_BOM[i]) return 0;
  return n === 3 ? 3 : BOM_UNDECIDED;
}

/** `text` (a whole file decoded as UTF-8) without a leading byte order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The message of an input that holds no entry (blank lines only, or nothing). */
export function noEntriesMessage(source: string): string {
  return `${source}: no entries (the input holds no JSON line with a key and a value); nothing was written`;
}
