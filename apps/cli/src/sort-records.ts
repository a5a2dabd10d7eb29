/**
 * The order of 64-byte records (key ‖ value) by key, stable, keeping only the last record of
 * each key (later entries win): an LSD radix sort (four 8-bit passes) on each key's first four
 * bytes, then runs with equal first four bytes (rare for hashed keys; values of one stem) are
 * sorted by the rest of the key with a stable comparison sort, so adversarial keys cost
 * O(n log n), never O(n²). Returns record indexes in key order.
 */
export function sortRecordsByKey(records: Uint8Array, count: number): Uint32Array {
  const prefix = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const at = i << 6;
    prefix[i] =
      ((records[at]! << 24) |
        (records[at + 1]! << 16) |
        (records[at + 2]! << 8) |
        records[at + 3]!) >>>
      0;
  }
  let order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  let scratch = new Uint32Array(count);
  const buckets = new Uint32Array(256);
  for (let shift = 0; shift < 32; shift += 8) {
    buckets.fill(0);
    for (let i = 0; i < count; i++) buckets[(prefix[order[i]!]! >>> shift) & 0xff]!++;
    let sum = 0;
    for (let b = 0; b < 256; b++) {
      const c = buckets[b]!;
      buckets[b] = sum;
      sum += c;
    }
    for (let i = 0; i < count; i++) {
      const r = order[i]!;
      scratch[buckets[(prefix[r]! >>> shift) & 0xff]!++] = r;
    }
    [order, scratch] = [scratch, order];
  }
  // Runs of equal prefixes: order by the remaining 28 key bytes (stable: input order on ties).
  let start = 0;
  while (start < count) {
    let end = start + 1;
    const p = prefix[order[start]!]!;
    while (end < count && prefix[order[end]!]! === p) end++;
    if (end - start > 1) {
      const run = Array.from(order.subarray(start, end));
      run.sort((a, b) => compareKeyTails(records, a, b));
      order.set(run, start);
    }
    start = end;
  }
  // Later entries win: keep the last record of each run of equal keys.
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const r = order[i]!;
    if (
      i + 1 < count &&
      compareKeyTails(records, r, order[i + 1]!) === 0 &&
      prefix[r] === prefix[order[i + 1]!]
    )
      continue;
    order[kept++] = r;
  }
  return order.subarray(0, kept);
}

function compareKeyTails(records: Uint8Array, a: number, b: number): number {
  const x = a << 6;
  const y = b << 6;
  for (let i = 4; i < 32; i++) {
    const d = records[x + i]! - records[y + i]!;
    if (d !== 0) return d;
  }
  return 0;
}
