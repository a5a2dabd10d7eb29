import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { bytesToHex } from "@ethereumjs/util";
import { TestnetError } from "../chain/testnet-error.js";
import type { TraceSink } from "../trace/opcode-trace.js";
import { TraceStream } from "../trace/trace-stream.js";
import { T8N_EXIT_IO } from "./t8n-exit-codes.js";

/**
 * geth's t8n trace files: `trace-<n>-<tx hash>.jsonl` under the output directory, n counting the
 * transactions that reached execution (those refused before it, as they decode or recover their
 * sender, have none; one refused by its pre-check has an empty file). Written synchronously, so
 * the lines keep the order the EVM produced them in and a failing transition leaves the traces
 * of what ran.
 */
export class TraceFiles implements TraceSink {
  readonly #basedir: string;
  #count = 0;
  #fd: number | undefined;
  #path = "";
  /** The open file's lines, held in pieces and written to it by #write. */
  readonly #lines = new TraceStream({ write: (text: string) => this.#write(text) });
  /** The first write of the open file that failed, thrown by `end`. */
  #failure: TestnetError | undefined;
  /** The files written, in order. */
  readonly written: string[] = [];

  constructor(basedir: string) {
    this.#basedir = basedir;
  }

  begin(txHash: Uint8Array | undefined): void {
    this.end();
    const n = this.#count++;
    if (txHash === undefined) return;
    this.#path = join(this.#basedir, `trace-${n}-${bytesToHex(txHash)}.jsonl`);
    try {
      this.#fd = openSync(this.#path, "w");
    } catch (cause) {
      throw this.#fault("cannot create it", cause);
    }
    this.written.push(this.#path);
  }

  /**
   * Called from the EVM's events: a write that fails is kept and thrown by `end`, so the fault
   * reaches the caller as an output fault, not as the transaction's failure.
   */
  line(json: string): void {
    if (this.#fd === undefined || this.#failure !== undefined) return;
    this.#lines.line(json);
  }

  end(): void {
    if (this.#fd === undefined) return;
    this.#lines.end();
    const fd = this.#fd;
    this.#fd = undefined;
    try {
      closeSync(fd);
    } catch (cause) {
      this.#failure ??= this.#fault("cannot close it", cause);
    }
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure !== undefined) throw failure;
  }

  #write(text: string): void {
    if (this.#fd === undefined || this.#failure !== undefined) return;
    try {
      writeSync(this.#fd, text);
    } catch (cause) {
      this.#failure = this.#fault("cannot write it", cause);
    }
  }

  #fault(what: string, cause: unknown): TestnetError {
    const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
    return new TestnetError("INVALID_OUTPUT", `--trace: ${this.#path}: ${what} (${code})`, {
      file: this.#path,
      gethExitCode: T8N_EXIT_IO,
    });
  }
}
