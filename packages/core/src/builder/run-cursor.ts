import { BuilderError } from "./builder-error.js";
import { ENTRY_RECORD_SIZE } from "./entry-records.js";

const NO_BYTES = new Uint8Array(0);

/**
 * Reads the 64-byte records of one sorted run from its chunk stream. The current record is
 * bytes[at..at+64) of `bytes`; moving within a chunk is synchronous, only crossing to the next
 * chunk awaits.
 */
export class RunCursor {
  /** Position of the run in input order: ties between runs go to the earlier one. */
  readonly run: number;
  bytes: Uint8Array = NO_BYTES;
  at = 0;
  readonly #handle: string;
  readonly #chunks: AsyncIterator<Uint8Array>;
  #chunk: Uint8Array = NO_BYTES;
  #pos = 0;

  constructor(run: number, handle: string, chunks: AsyncIterable<Uint8Array>) {
    this.run = run;
    this.#handle = handle;
    this.#chunks = chunks[Symbol.asyncIterator]();
  }

  /** Moves to the next record if the current chunk holds it whole; false if not. */
  tryNext(): boolean {
    if (this.#chunk.length - this.#pos < ENTRY_RECORD_SIZE) return false;
    this.bytes = this.#chunk;
    this.at = this.#pos;
    this.#pos += ENTRY_RECORD_SIZE;
    return true;
  }

  /** Moves to the next record, reading chunks as needed; false at the end of the run. */
  async next(): Promise<boolean> {
    if (this.tryNext()) return true;
    let carry: Uint8Array | undefined;
    let have = this.#chunk.length - this.#pos;
    if (have > 0) {
      carry = new Uint8Array(ENTRY_RECORD_SIZE);
      carry.set(this.#chunk.subarray(this.#pos));
    }
    for (;;) {
      const step = await this.#chunks.next();
      if (step.done === true) {
        this.#chunk = NO_BYTES;
        this.#pos = 0;
        if (have === 0) return false;
        throw new BuilderError(
          "INVALID_RUN",
          `sort run ${this.#handle} ends inside a record (${have} of ${ENTRY_RECORD_SIZE} bytes)`,
        );
      }
      const chunk = step.value;
      if (!(chunk instanceof Uint8Array)) {
        throw new BuilderError(
          "INVALID_RUN",
          `sort run ${this.#handle} yielded a ${typeof chunk} chunk; expected Uint8Array`,
        );
      }
      this.#chunk = chunk;
      this.#pos = 0;
      if (carry === undefined) {
        if (this.tryNext()) return true;
        if (chunk.length === 0) continue;
        carry = new Uint8Array(ENTRY_RECORD_SIZE);
      }
      const take = Math.min(ENTRY_RECORD_SIZE - have, chunk.length);
      carry.set(chunk.subarray(0, take), have);
      have += take;
      this.#pos = take;
      if (have === ENTRY_RECORD_SIZE) {
        this.bytes = carry;
        this.at = 0;
        return true;
      }
    }
  }

  /** Stops reading early (lets the storage close its stream). */
  async close(): Promise<void> {
    await this.#chunks.return?.();
  }
}
