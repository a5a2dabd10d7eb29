export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

export function fromHex(text: string): Uint8Array {
  return Uint8Array.from(Buffer.from(text.replace(/^0x/, ""), "hex"));
}

/** 32-byte big-endian encoding of a uint256. */
export function word(value: bigint): Uint8Array {
  return fromHex(value.toString(16).padStart(64, "0"));
}

/** Minimal big-endian bytes (empty for zero). */
export function minimal(value: bigint): Uint8Array {
  if (value === 0n) return new Uint8Array(0);
  const h = value.toString(16);
  return fromHex(h.length % 2 === 0 ? h : `0${h}`);
}

/** `0x` and an even number of hex digits: valid as a genesis quantity and as a storage word. */
export function quantity(value: bigint): string {
  const digits = value.toString(16);
  return `0x${digits.length % 2 === 0 ? digits : `0${digits}`}`;
}
