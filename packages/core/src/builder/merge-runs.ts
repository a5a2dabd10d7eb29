import { compareRecordKeys } from "./entry-records.js";
import type { RunCursor } from "./run-cursor.js";

/**
 * K-way merge of sorted runs: yields each record's cursor positioned on it, in key order, ties
 * in run order (so equal keys come out in input order). The record is only valid until the
 * generator resumes.
 */
export async function* mergeRuns(cursors: RunCursor[]): AsyncGenerator<RunCursor> {
  const heap: RunCursor[] = [];
  try {
    for (const cursor of cursors) if (await cursor.next()) heap.push(cursor);
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
    while (heap.length > 0) {
      const top = heap[0]!;
      yield top;
      if (!top.tryNext() && !(await top.next())) {
        const last = heap.pop()!;
        if (heap.length === 0) break;
        heap[0] = last;
      }
      siftDown(heap, 0);
    }
  } finally {
    for (const cursor of cursors) await cursor.close();
  }
}

function before(a: RunCursor, b: RunCursor): boolean {
  const order = compareRecordKeys(a.bytes, a.at, b.bytes, b.at);
  return order < 0 || (order === 0 && a.run < b.run);
}

function siftDown(heap: RunCursor[], index: number): void {
  const n = heap.length;
  const item = heap[index]!;
  for (;;) {
    let child = 2 * index + 1;
    if (child >= n) break;
    if (child + 1 < n && before(heap[child + 1]!, heap[child]!)) child++;
    if (!before(heap[child]!, item)) break;
    heap[index] = heap[child]!;
    index = child;
  }
  heap[index] = item;
}
