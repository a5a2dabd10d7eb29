/**
 * Where an external sort keeps its sorted runs (files on disk in Node, anything else in other
 * hosts). Core does no I/O itself: the application passes an implementation in.
 */
export interface RunStorage {
  /**
   * Stores one run, given as a stream of chunks to consume in order (a chunk is never reused
   * by the sort, so it may be kept), and returns a handle for it.
   */
  writeRun(chunks: AsyncIterable<Uint8Array>): Promise<string>;
  /** The bytes of a run in order, in chunks of any size; together exactly what was written. */
  readRun(handle: string): AsyncIterable<Uint8Array>;
  /** Removes a run that is no longer needed. */
  deleteRun(handle: string): Promise<void>;
}
