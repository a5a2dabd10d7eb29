import { describeValue } from "@bintrie/codec";
import { type BatchOperation, SPAN_WORDS, type SpanPuts } from "./kv-store.js";
import { StoreError } from "./store-error.js";

/**
 * Checks a whole batch before any of it reaches the backend, so a bad operation rejects the
 * batch instead of leaving part of it applied (LevelDB would store a string value as text).
 * `what` starts each error message (default "batch").
 *
 * @example
 * ```ts
 * import { validateBatchOperations } from "@bintrie/core/store";
 *
 * // A store's batch(): reject the whole batch before writing any of it.
 * validateBatchOperations([{ type: "put", key: Uint8Array.of(1), value: Uint8Array.of(2) }]); // ok
 * ```
 */
export function validateBatchOperations(
  operations: readonly BatchOperation[],
  what = "batch",
): void {
  if (!Array.isArray(operations)) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `${what}: operations must be an array, got ${describeValue(operations)}`,
    );
  }
  for (let i = 0; i < operations.length; i++) {
    const op = operations[i] as BatchOperation | null;
    if (typeof op !== "object" || op === null) {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `${what}: operation ${i} must be { type, key, value? }, got ${describeValue(op)}`,
      );
    }
    if (op.type !== "put" && op.type !== "del") {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `${what}: operation ${i} has type ${describeValue((op as { type?: unknown }).type)}, expected "put" or "del"`,
      );
    }
    if (!(op.key instanceof Uint8Array)) {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `${what}: operation ${i} key must be a Uint8Array, got ${describeValue(op.key)}`,
      );
    }
    if (op.type === "put" && !(op.value instanceof Uint8Array)) {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `${what}: operation ${i} (put) value must be a Uint8Array, got ${describeValue(op.value)}`,
      );
    }
  }
}

/**
 * Checks the span puts of a `batchWithSpans` call (and where they go among `operations`
 * operations) before any of the batch is applied: every span must lie inside its chunk.
 *
 * @example
 * ```ts
 * import { validateSpanPuts } from "@bintrie/core/store";
 *
 * // One put: key bytes [0, 2) and value bytes [2, 4) of the chunk, before operation 0.
 * validateSpanPuts({ chunks: [new Uint8Array(4)], spans: Uint32Array.of(0, 0, 2, 2, 4), count: 1 }, 0, 0);
 * ```
 */
export function validateSpanPuts(puts: SpanPuts, at: number, operations: number): void {
  const { chunks, spans, count } = puts ?? {};
  if (!Array.isArray(chunks) || !(spans instanceof Uint32Array) || !Number.isInteger(count)) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `batchWithSpans: puts must be { chunks: Uint8Array[], spans: Uint32Array, count: integer }, got ${puts === null || typeof puts !== "object" ? describeValue(puts) : `chunks ${describeValue(chunks)}, spans ${describeValue(spans)}, count ${describeValue(count)}`}`,
    );
  }
  if (count < 0 || count * SPAN_WORDS > spans.length) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `batchWithSpans: count ${count} needs ${count * SPAN_WORDS} span words, got ${spans.length}`,
    );
  }
  if (!Number.isInteger(at) || at < 0 || at > operations) {
    throw new StoreError(
      "INVALID_ARGUMENT",
      `batchWithSpans: at must be an integer in 0..${operations}, got ${String(at)}`,
    );
  }
  for (let c = 0; c < chunks.length; c++) {
    if (!(chunks[c] instanceof Uint8Array)) {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `batchWithSpans: chunk ${c} must be a Uint8Array, got ${describeValue(chunks[c])}`,
      );
    }
  }
  for (let i = 0; i < count; i++) {
    const w = i * SPAN_WORDS;
    const chunk = chunks[spans[w]!];
    const keyStart = spans[w + 1]!;
    const keyEnd = spans[w + 2]!;
    const valueStart = spans[w + 3]!;
    const valueEnd = spans[w + 4]!;
    if (
      chunk === undefined ||
      keyStart > keyEnd ||
      keyEnd > chunk.length ||
      valueStart > valueEnd ||
      valueEnd > chunk.length
    ) {
      throw new StoreError(
        "INVALID_ARGUMENT",
        `batchWithSpans: put ${i} (chunk ${spans[w]}, key ${keyStart}..${keyEnd}, value ${valueStart}..${valueEnd}) lies outside its chunk (${chunks.length} chunks${chunk === undefined ? "" : `, this one ${chunk.length} bytes`})`,
      );
    }
  }
}
