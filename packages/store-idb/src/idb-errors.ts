import { StoreError } from "@bintrie/core";

/** What failed, for the error message. */
export interface IdbErrorContext {
  readonly database: string;
  readonly storeName: string;
  readonly operation: string;
}

/** Where, in every message: the object store and its database. */
export function describeStore(context: Omit<IdbErrorContext, "operation">): string {
  return `IndexedDB store ${JSON.stringify(context.storeName)} in database ${JSON.stringify(context.database)}`;
}

/**
 * Maps an IndexedDB failure (a DOMException from a request, a transaction or opening the
 * database) to a StoreError with a stable code.
 */
export function toStoreError(error: unknown, context: IdbErrorContext): StoreError {
  if (error instanceof StoreError) return error;
  const name = error instanceof Error || isDomException(error) ? error.name : "Error";
  const message = error instanceof Error || isDomException(error) ? error.message : String(error);
  const where = describeStore(context);
  if (name === "InvalidStateError") {
    return new StoreError(
      "STORE_CLOSED",
      `${context.operation}: ${where} is closed or closing (${message})`,
      { cause: error },
    );
  }
  const hint =
    name === "NotFoundError"
      ? "; the database exists without this object store (idb-keyval creates the store only when it creates the database, so give each store name its own database)"
      : name === "QuotaExceededError"
        ? "; the origin's storage quota is exhausted"
        : "";
  return new StoreError(
    "STORE_IO",
    `${context.operation} on ${where} failed: ${name}: ${message}${hint}`,
    { cause: error },
  );
}

function isDomException(error: unknown): error is { name: string; message: string } {
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { name?: unknown }).name === "string" &&
    typeof (error as { message?: unknown }).message === "string"
  );
}
