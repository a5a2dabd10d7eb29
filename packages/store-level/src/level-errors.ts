import { StoreError } from "@bintrie/core";

/** What failed, for the error message. */
export interface LevelErrorContext {
  readonly location: string;
  readonly operation: string;
}

/**
 * Maps an abstract-level error to a StoreError with a stable code. abstract-level reports open
 * failures as LEVEL_DATABASE_NOT_OPEN with the real reason (LEVEL_LOCKED, LEVEL_IO_ERROR, ...)
 * in `cause`, operations on a closed database as LEVEL_DATABASE_NOT_OPEN without a cause, and
 * reads from an iterator the closing database closed as LEVEL_ITERATOR_NOT_OPEN.
 */
export function toStoreError(error: unknown, context: LevelErrorContext): StoreError {
  if (error instanceof StoreError) return error;
  const code = levelCode(error);
  const cause = error instanceof Error ? error.cause : undefined;
  const causeCode = levelCode(cause);
  const reason = describe(cause ?? error);
  const where = `LevelDB at ${JSON.stringify(context.location)}`;
  if (causeCode === "LEVEL_LOCKED" || code === "LEVEL_LOCKED") {
    return new StoreError(
      "STORE_LOCKED",
      `${where} is locked by another process or another open handle in this process (${reason}); close that one, or share one store and give each tree its own prefix with withPrefix()`,
      { cause: error },
    );
  }
  if (context.operation === "open") {
    return new StoreError("STORE_IO", `cannot open ${where}: ${reason}`, { cause: error });
  }
  // An iterator the database closed under it (close() while entries() was being read).
  if (
    (code === "LEVEL_DATABASE_NOT_OPEN" && cause === undefined) ||
    code === "LEVEL_ITERATOR_NOT_OPEN"
  ) {
    return new StoreError("STORE_CLOSED", `${context.operation}: ${where} is closed`, {
      cause: error,
    });
  }
  const kind =
    code === "LEVEL_CORRUPTION" || causeCode === "LEVEL_CORRUPTION" ? "corruption: " : "";
  return new StoreError("STORE_IO", `${context.operation} on ${where} failed: ${kind}${reason}`, {
    cause: error,
  });
}

function levelCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
