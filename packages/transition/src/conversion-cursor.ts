import { compareBytes } from "@bintrie/core/bytes";

/**
 * How far conversion has come, in hashed-key order. While converting: every account whose
 * hashed address is below `account` is fully in the overlay; `account` itself has its header
 * and code in the overlay and its storage slots up to `lastSlot` (hashed, inclusive), or all of
 * them when `storageDone`.
 */
export type ConversionCursor =
  | { readonly phase: "pending" }
  | {
      readonly phase: "converting";
      readonly account: Uint8Array;
      readonly lastSlot: Uint8Array | undefined;
      readonly storageDone: boolean;
    }
  | { readonly phase: "done" };

/** Where one account stands: nothing of it converted, part of it, or all of it. */
export type AccountProgress = "untouched" | "partial" | "converted";

export function accountProgress(
  cursor: ConversionCursor,
  hashedAddress: Uint8Array,
): AccountProgress {
  if (cursor.phase === "pending") return "untouched";
  if (cursor.phase === "done") return "converted";
  const c = compareBytes(hashedAddress, cursor.account);
  if (c < 0) return "converted";
  if (c > 0) return "untouched";
  return cursor.storageDone ? "converted" : "partial";
}

/** A rough share of the work done: hashed keys are uniform, so the cursor's position is one. */
export function cursorFraction(cursor: ConversionCursor): number {
  if (cursor.phase === "pending") return 0;
  if (cursor.phase === "done") return 1;
  let f = 0;
  let scale = 1 / 256;
  for (let i = 0; i < 8; i++) {
    f += cursor.account[i]! * scale;
    scale /= 256;
  }
  return f;
}
