import { describeValue } from "@bintrie/codec";
import { concatBytes } from "@noble/hashes/utils.js";
import { ascii } from "./bytes.js";
import { TransitionError } from "./transition-error.js";

/**
 * Where the transition keeps its data in the shared store, next to the overlay's binary nodes
 * ("vA" + path) and its root record ("bintrie:root"). Every prefix must differ from the others
 * and from the overlay's key prefix, so one LevelDB can hold all of it.
 */
export interface StoreLayout {
  /** MPT nodes of the base: prefix + keccak(node), as go-ethereum's hash scheme keys them. */
  readonly mptNodePrefix: Uint8Array;
  /** Contract code of the base: prefix + codeHash. */
  readonly codePrefix: Uint8Array;
  /** The transition's side tables (account marks, leaf tombstones, written-slot index). */
  readonly sidePrefix: Uint8Array;
}

export const DEFAULT_STORE_LAYOUT: StoreLayout = {
  mptNodePrefix: ascii("M"),
  codePrefix: ascii("C"),
  sidePrefix: ascii("T"),
};

const ACCOUNT_MARK = 0x61; // 'a': address → flags
const WRITTEN_SLOT = 0x73; // 's': address || slot → (empty)
const LEAF_TOMBSTONE = 0x7a; // 'z': address || tree key → (empty)
const BASE_STORAGE = 0x62; // 'b': address → (empty): converted with base storage

/** Store keys of the base and of the side tables under one layout. */
export class StoreKeys {
  readonly layout: StoreLayout;

  constructor(layout: StoreLayout) {
    this.layout = layout;
  }

  mptNode(hash: Uint8Array): Uint8Array {
    return concatBytes(this.layout.mptNodePrefix, hash);
  }

  code(codeHash: Uint8Array): Uint8Array {
    return concatBytes(this.layout.codePrefix, codeHash);
  }

  accountMark(address: Uint8Array): Uint8Array {
    return this.#side(ACCOUNT_MARK, address);
  }

  writtenSlot(address: Uint8Array, slot: Uint8Array): Uint8Array {
    return this.#side(WRITTEN_SLOT, address, slot);
  }

  /** Range prefix of every written-slot entry of `address`. */
  writtenSlots(address: Uint8Array): Uint8Array {
    return this.#side(WRITTEN_SLOT, address);
  }

  leafTombstone(address: Uint8Array, treeKey: Uint8Array): Uint8Array {
    return this.#side(LEAF_TOMBSTONE, address, treeKey);
  }

  /** Range prefix of every leaf tombstone of `address`. */
  leafTombstones(address: Uint8Array): Uint8Array {
    return this.#side(LEAF_TOMBSTONE, address);
  }

  /**
   * The account was converted with base storage (so deleting it must clear those slots, which
   * needs the base); absent for accounts without. Kept after conversion.
   */
  baseStorage(address: Uint8Array): Uint8Array {
    return this.#side(BASE_STORAGE, address);
  }

  /** Range prefix of every side-table entry of one kind (for the final clean-up). */
  sideTable(kind: "marks" | "tombstones"): Uint8Array {
    return this.#side(kind === "marks" ? ACCOUNT_MARK : LEAF_TOMBSTONE);
  }

  #side(kind: number, a?: Uint8Array, b?: Uint8Array): Uint8Array {
    const p = this.layout.sidePrefix;
    const out = new Uint8Array(p.length + 1 + (a?.length ?? 0) + (b?.length ?? 0));
    out.set(p, 0);
    out[p.length] = kind;
    if (a !== undefined) out.set(a, p.length + 1);
    if (b !== undefined) out.set(b, p.length + 1 + (a?.length ?? 0));
    return out;
  }
}

/** Whether two layouts use the same prefixes. */
export function sameLayout(a: StoreLayout, b: StoreLayout): boolean {
  return (
    equalPrefix(a.mptNodePrefix, b.mptNodePrefix) &&
    equalPrefix(a.codePrefix, b.codePrefix) &&
    equalPrefix(a.sidePrefix, b.sidePrefix)
  );
}

/** A layout as text for messages: `{ mptNodePrefix: "M", codePrefix: "C", sidePrefix: "T" }`. */
export function describeLayout(layout: StoreLayout): string {
  return `{ mptNodePrefix: ${JSON.stringify(latin1(layout.mptNodePrefix))}, codePrefix: ${JSON.stringify(latin1(layout.codePrefix))}, sidePrefix: ${JSON.stringify(latin1(layout.sidePrefix))} }`;
}

/** Throws unless the prefixes are non-empty and none is a prefix of another or of `others`. */
export function assertLayout(layout: StoreLayout, others: readonly Uint8Array[]): void {
  if (typeof layout !== "object" || layout === null) {
    throw new TransitionError(
      "INVALID_ARGUMENT",
      `store layout must be an object { mptNodePrefix, codePrefix, sidePrefix }, got ${describeValue(layout)}`,
    );
  }
  const named: [string, Uint8Array][] = [
    ["mptNodePrefix", layout.mptNodePrefix],
    ["codePrefix", layout.codePrefix],
    ["sidePrefix", layout.sidePrefix],
  ];
  for (const [name, p] of named) {
    if (!(p instanceof Uint8Array) || p.length === 0 || p.length > 255) {
      throw new TransitionError(
        "INVALID_ARGUMENT",
        `store layout ${name} must be 1 to 255 bytes, got ${describeValue(p)}`,
      );
    }
  }
  const all = [...named.map(([, p]) => p), ...others];
  for (let i = 0; i < all.length; i++) {
    for (let j = 0; j < all.length; j++) {
      if (i !== j && startsWith(all[j]!, all[i]!)) {
        throw new TransitionError(
          "INVALID_ARGUMENT",
          `store layout: prefix ${JSON.stringify(latin1(all[i]!))} overlaps ${JSON.stringify(latin1(all[j]!))}; keys would collide`,
        );
      }
    }
  }
}

function equalPrefix(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && startsWith(a, b);
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

function latin1(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}
