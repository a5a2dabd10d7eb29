import type { TraceSink } from "./opcode-trace.js";

/** A text stream trace lines are written to (the CLI's stderr, a test's capture). */
export interface TraceOutput {
  write(text: string): unknown;
}

/** Bytes of trace lines held before they are written. */
const FLUSH_AT = 1 << 16;

/**
 * One stream of trace lines, transaction after transaction, as geth's `evm blocktest --trace`
 * writes its JSON opcode trace to stderr: no file or marker per transaction. Lines are held in
 * 64 KiB pieces and written as each transaction's trace ends, so they keep the EVM's order.
 */
export class TraceStream implements TraceSink {
  readonly #out: TraceOutput;
  #held: string[] = [];
  #heldBytes = 0;

  constructor(out: TraceOutput) {
    this.#out = out;
  }

  /** Nothing marks a transaction's start in geth's stream. */
  begin(): void {}

  line(json: string): void {
    this.#held.push(json);
    this.#heldBytes += json.length + 1;
    if (this.#heldBytes >= FLUSH_AT) this.#flush();
  }

  end(): void {
    this.#flush();
  }

  #flush(): void {
    if (this.#held.length === 0) return;
    const text = `${this.#held.join("\n")}\n`;
    this.#held = [];
    this.#heldBytes = 0;
    this.#out.write(text);
  }
}
