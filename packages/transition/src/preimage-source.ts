import type { GenesisAlloc } from "@bintrie/core";
import { bytesToHex, bytesToKeyString, equalBytes } from "@bintrie/core/bytes";
import { bytesArgument, invalidArgument } from "./arguments.js";
import { keccak256 } from "./bytes.js";
import { type AllocAccount, allocAccounts } from "./genesis-input.js";
import { TransitionError } from "./transition-error.js";

/**
 * Where conversion finds the unhashed keys behind the MPT's hashed ones: the 20-byte address
 * behind keccak(address), the 32-byte slot behind keccak(slot). May answer synchronously (a Map)
 * or asynchronously (a preimage database).
 */
export interface PreimageSource {
  preimage(hashedKey: Uint8Array): Uint8Array | undefined | PromiseLike<Uint8Array | undefined>;
}

/**
 * A preimage source over an in-memory map keyed by the hashed key.
 *
 * @example
 * ```ts
 * import { MapPreimageSource } from "@bintrie/transition";
 *
 * const source = new MapPreimageSource();
 * const hashed = source.add(new Uint8Array(20)); // keccak256 of the address, now resolvable
 * ```
 */
export class MapPreimageSource implements PreimageSource {
  readonly #map = new Map<string, Uint8Array>();

  /** Number of preimages held. */
  get size(): number {
    return this.#map.size;
  }

  /** Adds a preimage (an address or a slot) under its keccak-256; returns the hashed key. */
  add(preimage: Uint8Array): Uint8Array {
    if (!(preimage instanceof Uint8Array) || (preimage.length !== 20 && preimage.length !== 32)) {
      throw invalidArgument(
        "MapPreimageSource.add: preimage",
        "an address (20 bytes) or a storage slot (32 bytes) as a Uint8Array",
        preimage,
      );
    }
    const hashed = keccak256(preimage);
    this.#map.set(bytesToKeyString(hashed), preimage.slice());
    return hashed;
  }

  preimage(hashedKey: Uint8Array): Uint8Array | undefined {
    if (!(hashedKey instanceof Uint8Array)) {
      throw invalidArgument("MapPreimageSource.preimage: hashedKey", "a Uint8Array", hashedKey);
    }
    return this.#map.get(bytesToKeyString(hashedKey));
  }
}

/**
 * Preimages of every address and storage slot of an alloc.
 *
 * @example
 * ```ts
 * import { preimagesFromAlloc } from "@bintrie/transition";
 *
 * const preimages = preimagesFromAlloc({
 *   "0x0100000000000000000000000000000000000000": { storage: { "0x01": "0x2a" } },
 * }); // the address and the slot, by their keccak-256
 * ```
 */
export function preimagesFromAlloc(
  alloc: GenesisAlloc | readonly AllocAccount[],
): MapPreimageSource {
  const accounts = allocAccounts("preimagesFromAlloc: alloc", alloc);
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
 *
 * @example
 * ```ts
 * import { bytesToHex } from "@bintrie/core";
 * import { keccak_256 } from "@noble/hashes/sha3.js";
 * import { preimagesFromMap } from "@bintrie/transition";
 *
 * const address = new Uint8Array(20);
 * const preimages = preimagesFromMap([[bytesToHex(keccak_256(address)), bytesToHex(address)]]);
 * ```
 */
export function preimagesFromMap(
  entries: Iterable<readonly [string | Uint8Array, string | Uint8Array]>,
): MapPreimageSource {
  if (
    typeof entries !== "object" ||
    entries === null ||
    typeof (entries as Iterable<unknown>)[Symbol.iterator] !== "function"
  ) {
    throw invalidArgument(
      "preimagesFromMap: entries",
      "an iterable of [hashedKey, preimage] pairs",
      entries,
    );
  }
  const source = new MapPreimageSource();
  let i = 0;
  for (const entry of entries) {
    const what = `preimagesFromMap: entries[${i++}]`;
    if (!Array.isArray(entry)) throw invalidArgument(what, "a [hashedKey, preimage] pair", entry);
    const hashed = bytesArgument(`${what} key`, entry[0]);
    const preimage = bytesArgument(`${what} preimage`, entry[1]);
    if (hashed.length !== 32) {
      throw new TransitionError(
        "INVALID_ARGUMENT",
        `${what} key must be 32 bytes, got ${hashed.length} bytes`,
      );
    }
    if (preimage.length !== 20 && preimage.length !== 32) {
      throw new TransitionError(
        "BAD_PREIMAGE",
        `${what}: preimage of ${bytesToHex(hashed)} must be 20 or 32 bytes, got ${preimage.length} bytes`,
        hashed,
      );
    }
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
