import type { GenesisAlloc } from "@bintrie/core";
import { bytesToHex, bytesToKeyString, equalBytes, hexToBytes } from "@bintrie/core/bytes";
import { keccak256 } from "./bytes.js";
import { type AllocAccount, parseAlloc } from "./genesis-input.js";
import { TransitionError } from "./transition-error.js";

/**
 * Where conversion finds the unhashed keys behind the MPT's hashed ones: the 20-byte address
 * behind keccak(address), the 32-byte slot behind keccak(slot). May answer synchronously (a Map)
 * or asynchronously (a preimage database).
 */
export interface PreimageSource {
  preimage(hashedKey: Uint8Array): Uint8Array | undefined | PromiseLike<Uint8Array | undefined>;
}

/** A preimage source over an in-memory map keyed by the hashed key. */
export class MapPreimageSource implements PreimageSource {
  readonly #map = new Map<string, Uint8Array>();

  /** Number of preimages held. */
  get size(): number {
    return this.#map.size;
  }

  /** Adds a preimage (an address or a slot) under its keccak-256; returns the hashed key. */
  add(preimage: Uint8Array): Uint8Array {
    const hashed = keccak256(preimage);
    this.#map.set(bytesToKeyString(hashed), preimage.slice());
    return hashed;
  }

  preimage(hashedKey: Uint8Array): Uint8Array | undefined {
    return this.#map.get(bytesToKeyString(hashedKey));
  }
}

/** Preimages of every address and storage slot of an alloc. */
export function preimagesFromAlloc(
  alloc: GenesisAlloc | readonly AllocAccount[],
): MapPreimageSource {
  const accounts = Array.isArray(alloc)
    ? (alloc as readonly AllocAccount[])
    : parseAlloc(alloc as GenesisAlloc);
  const source = new MapPreimageSource();
  for (const account of accounts) {
    source.add(account.address);
    for (const [slot] of account.storage) source.add(slot);
  }
  return source;
}

/**
 * Preimages from a map of hashed key → preimage, as 0x-hex strings or bytes (e.g. a geth
 * preimage dump). Every entry is checked: keccak(preimage) must equal its key.
 */
export function preimagesFromMap(
  entries: Iterable<readonly [string | Uint8Array, string | Uint8Array]>,
): MapPreimageSource {
  const source = new MapPreimageSource();
  for (const [key, value] of entries) {
    const hashed = typeof key === "string" ? parseHex(key, "preimage map key") : key;
    const preimage = typeof value === "string" ? parseHex(value, `preimage of ${key}`) : value;
    if (!equalBytes(source.add(preimage), hashed)) {
      throw new TransitionError(
        "BAD_PREIMAGE",
        `preimage map: keccak256(${bytesToHex(preimage)}) is not the key ${bytesToHex(hashed)}`,
        hashed,
      );
    }
  }
  return source;
}

function parseHex(text: string, what: string): Uint8Array {
  try {
    return hexToBytes(text, what);
  } catch (error) {
    throw new TransitionError("INVALID_ARGUMENT", (error as Error).message);
  }
}
