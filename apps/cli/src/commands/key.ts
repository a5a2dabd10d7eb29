import type { KeyScheme } from "@bintrie/core";
import { bytesToHex } from "@bintrie/core";
import { parseAddress, parseSlot } from "../account-args.js";
import { CliError } from "../cli-error.js";
import { parseHexArg } from "../hex.js";
import { printLine } from "../line-output.js";

export interface KeyFlags {
  readonly slot?: readonly string[];
  readonly chunk?: readonly string[];
  readonly basicData?: boolean;
  readonly codeHash?: boolean;
  readonly scheme?: KeyScheme;
  readonly json?: boolean;
}

interface DerivedKey {
  readonly kind: "basic-data" | "code-hash" | "slot" | "chunk";
  /** The slot (32-byte hex, as `storage --json` prints it) or the chunk index (decimal). */
  readonly selector?: string;
  readonly key: Uint8Array;
}

/**
 * `bintrie key ADDRESS...`: EIP-7864 tree keys of accounts. Without a selector, the BASIC_DATA
 * key. Selectors may repeat; per address, keys print one per line in the order basic data, code
 * hash, slots, chunks (each in the order given). `--json`: one object per address and line.
 */
export async function runKey(addressTexts: readonly string[], flags: KeyFlags): Promise<void> {
  const addresses = addressTexts.map(parseAddress);
  const slots = (flags.slot ?? []).map((text) => parseSlot(text, "--slot"));
  const chunks = (flags.chunk ?? []).map(parseChunkIndex);
  const { DEFAULT_KEY_SCHEME, KeyDeriver } = await import("@bintrie/core/embedding");
  const scheme = flags.scheme ?? DEFAULT_KEY_SCHEME;
  const keys = new KeyDeriver(scheme);
  const none = !flags.basicData && !flags.codeHash && slots.length === 0 && chunks.length === 0;
  for (const address of addresses) {
    const derived: DerivedKey[] = [];
    if (flags.basicData || none) {
      derived.push({ kind: "basic-data", key: keys.basicDataKey(address) });
    }
    if (flags.codeHash) derived.push({ kind: "code-hash", key: keys.codeHashKey(address) });
    for (const slot of slots) {
      const key = keys.storageSlotKey(address, slot);
      derived.push({ kind: "slot", selector: bytesToHex(slot), key });
    }
    for (const index of chunks) {
      derived.push({
        kind: "chunk",
        selector: String(index),
        key: keys.codeChunkKey(address, index),
      });
    }
    if (flags.json) {
      const rows = derived.map((d) => ({
        kind: d.kind,
        ...(d.selector === undefined ? {} : { [d.kind]: d.selector }),
        key: bytesToHex(d.key),
      }));
      printLine(JSON.stringify({ address: bytesToHex(address), scheme, keys: rows }));
    } else {
      for (const d of derived) printLine(bytesToHex(d.key));
    }
  }
}

/** Chunk indices the key layout takes: the chunk's tree index, 128 + index, is a uint64. */
const CHUNK_INDEX_LIMIT = (1n << 64n) - 128n;

function parseChunkIndex(text: string): bigint {
  if (/^[0-9]+$/.test(text)) {
    const index = BigInt(text);
    if (index < CHUNK_INDEX_LIMIT) return index;
  }
  throw new CliError(
    "BAD_INPUT",
    `--chunk ${JSON.stringify(text)} must be a decimal chunk index below 2^64 - 128 (${CHUNK_INDEX_LIMIT})`,
  );
}

/**
 * `bintrie chunkify HEXCODE...`: the EIP-7864 32-byte code chunks, one per line (a blank line
 * between codes). `--json`: one array per code and line.
 */
export async function runChunkify(
  codeTexts: readonly string[],
  flags: { json?: boolean },
): Promise<void> {
  const codes = codeTexts.map((text) => parseHexArg(text, "HEXCODE"));
  const { chunkifyCode } = await import("@bintrie/core/embedding");
  codes.forEach((code, i) => {
    const packed = chunkifyCode(code);
    const chunks: string[] = [];
    for (let at = 0; at < packed.length; at += 32)
      chunks.push(bytesToHex(packed.subarray(at, at + 32)));
    if (flags.json) {
      printLine(JSON.stringify(chunks));
    } else {
      if (i > 0) printLine("");
      for (const chunk of chunks) printLine(chunk);
    }
  });
}
