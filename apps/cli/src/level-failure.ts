/**
 * What LevelDB itself said about a failed store call: the innermost message of a StoreError's
 * cause chain (store-level wraps abstract-level's error, which wraps LevelDB's), without the
 * library's call name and location, and whether LevelDB found its files corrupt.
 */
export function levelFailure(error: unknown): {
  readonly reason: string;
  readonly corrupt: boolean;
} {
  let reason = error instanceof Error ? error.message : String(error);
  let corrupt = false;
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 8; depth++) {
    const code = (at as { code?: unknown }).code;
    if (code === "LEVEL_CORRUPTION") corrupt = true;
    if (
      typeof code === "string" &&
      code.startsWith("LEVEL_") &&
      code !== "LEVEL_DATABASE_NOT_OPEN"
    ) {
      reason = at.message;
    }
    at = at.cause;
  }
  return { reason, corrupt };
}
