import { compareRecordKeys, ENTRY_RECORD_SIZE } from "./entry-records.js";

/**
 * Sorts the first `count` 64-byte records of `records` in place by key, keeping records with
 * equal keys in their original order. Index sort on a 4-byte key prefix, then the permutation
 * is applied in place cycle by cycle, so the only extra memory is 8 bytes per record.
 */
export function sortRecords(records: Uint8Array, count: number): void {
  if (count < 2) return;
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const prefix = new Uint32Array(count);
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    prefix[i] = view.getUint32(i * ENTRY_RECORD_SIZE);
    order[i] = i;
  }
  order.sort((a, b) => {
    const pa = prefix[a]!;
    const pb = prefix[b]!;
    if (pa !== pb) return pa < pb ? -1 : 1;
    return (
      compareRecordKeys(records, a * ENTRY_RECORD_SIZE, records, b * ENTRY_RECORD_SIZE) || a - b
    );
  });
  // order[i] = the record that belongs at position i. Follow each cycle once.
  const held = new Uint8Array(ENTRY_RECORD_SIZE);
  for (let start = 0; start < count; start++) {
    if (order[start] === start) continue;
    held.set(records.subarray(start * ENTRY_RECORD_SIZE, (start + 1) * ENTRY_RECORD_SIZE));
    let at = start;
    for (;;) {
      const from = order[at]!;
      order[at] = at;
      if (from === start) {
        records.set(held, at * ENTRY_RECORD_SIZE);
        break;
      }
      records.copyWithin(
        at * ENTRY_RECORD_SIZE,
        from * ENTRY_RECORD_SIZE,
        (from + 1) * ENTRY_RECORD_SIZE,
      );
      at = from;
    }
  }
}
