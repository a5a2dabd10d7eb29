/** 0x-hex of a key, for error messages. */
export function hexOf(bytes: Uint8Array): string {
  let s = "0x";
  for (let i = 0; i < bytes.length; i++) s += bytes[i]!.toString(16).padStart(2, "0");
  return s;
}
