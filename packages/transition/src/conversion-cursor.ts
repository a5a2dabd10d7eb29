import { compareBytes } from "@bintrie/core/bytes";
import { assertByteLength, invalidArgument } from "./arguments.js";

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

/**
 * @example
 * ```ts
 * import { accountProgress } from "@bintrie/transition";
 *
 * accountProgress({ phase: "pending" }, new Uint8Array(32)); // "untouched"
 * accountProgress({ phase: "done" }, new Uint8Array(32)); // "converted"
 * ```
 */
export function accountProgress(
  cursor: ConversionCursor,
  hashedAddress: Uint8Array,
): AccountProgress {
  if (typeof cursor !== "object" || cursor === null) {
    throw invalidArgument("accountProgress: cursor", "a ConversionCursor", cursor);
  }
  assertByteLength("accountProgress: hashedAddress", hashedAddress, 32);
  if (cursor.phase === "pending") return "untouched";
  if (cursor.phase === "done") return "converted";
  if (cursor.phase !== "converting") {
    const phase = (cursor as { phase?: unknown }).phase;
    throw invalidArgument(
      "accountProgress: cursor.phase",
      "'pending', 'converting' or 'done'",
      phase,
    );
  }
  assertByteLength("accountProgress: cursor.account", cursor.account, 32);
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
