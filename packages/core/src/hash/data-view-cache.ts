/**
 * Remembers the DataView of the last ArrayBuffer it saw, so batch calls on the same backing
 * buffer (the normal case: one arena per tree level) do not allocate a DataView per call.
 * The view spans the whole buffer; callers add `bytes.byteOffset` themselves.
 */
export class DataViewCache {
  private buffer: ArrayBufferLike | undefined;
  private view: DataView | undefined;

  viewOf(bytes: Uint8Array): DataView {
    if (bytes.buffer !== this.buffer || this.view === undefined) {
      this.buffer = bytes.buffer;
      this.view = new DataView(bytes.buffer);
    }
    return this.view;
  }
}
