/**
 * Splits the 2^k partitions (starts[p]: the entries before partition p; 2^k + 1 values) into
 * units of consecutive partitions, the pieces the threads claim one at a time. A unit holds at
 * most `maxEntries` entries (an arena of that size is built and hashed while it is in cache),
 * or one partition when that alone holds more; units shrink towards the end (at most a
 * 2·threads-th of what is left) so the last ones are short and no thread idles long waiting for
 * another's. Returns the boundaries: unit u is partitions bounds[u]..bounds[u+1]-1.
 */
export function partitionUnits(
  starts: Uint32Array,
  threads: number,
  maxEntries: number,
): Uint32Array {
  const width = starts.length - 1;
  const total = starts[width]!;
  const bounds = [0];
  for (let from = 0; from < width; ) {
    const target = Math.max(
      1,
      Math.min(maxEntries, Math.floor((total - starts[from]!) / (2 * threads))),
    );
    let to = from + 1;
    while (to < width && starts[to + 1]! - starts[from]! <= target) to++;
    bounds.push(to);
    from = to;
  }
  return Uint32Array.from(bounds);
}
