import { once } from "node:events";

/**
 * What became of stdout: the first write error (EPIPE when the reader closed the pipe, e.g.
 * `bintrie nodes | head`; ENOSPC on a full disk, …). Recorded by {@link watchOutput}; once set,
 * output is dropped and the command's exit code stays its own.
 */
let stdoutError: NodeJS.ErrnoException | undefined;
let watching = false;

/**
 * Handles write errors of stdout and stderr for the rest of the process (idempotent): a closed or
 * failing stdout is recorded (see {@link outputFailure}), a closed or failing stderr is ignored
 * (progress and messages are not worth failing a command for). Without it such an error would be
 * an uncaught exception with a stack trace.
 */
export function watchOutput(): void {
  if (watching) return;
  watching = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    stdoutError ??= error;
  });
  process.stderr.on("error", () => undefined);
}

/** The error that stopped stdout, if any (EPIPE: the reader went away). */
export function outputFailure(): NodeJS.ErrnoException | undefined {
  return stdoutError;
}

/** Whether a failure is the reader closing the pipe (not an error of this command). */
export function isClosedPipe(error: NodeJS.ErrnoException): boolean {
  return error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED";
}

/**
 * Thrown by {@link LineOutput} when stdout can take no more lines, to stop a command with long
 * output promptly (`bintrie nodes | head`); the CLI reports `error` (or nothing, for EPIPE).
 */
export class OutputStopped extends Error {
  override name = "OutputStopped";
  readonly error: NodeJS.ErrnoException;

  constructor(error: NodeJS.ErrnoException) {
    super(`cannot write the output: ${error.message}`);
    this.error = error;
  }
}

/**
 * Resolves once stdout has taken (or failed) everything written so far, so that a write error
 * is known before the exit code is chosen.
 */
export async function settleOutput(): Promise<void> {
  const out = process.stdout;
  if (stdoutError === undefined && !out.destroyed && out.writableLength > 0) {
    await new Promise<void>((resolve) => {
      const done = () => {
        out.off("drain", done);
        out.off("error", done);
        out.off("close", done);
        resolve();
      };
      out.on("drain", done);
      out.on("error", done);
      out.on("close", done);
    });
  }
  // Errors of synchronous writes (files, pipes and terminals on Linux) are emitted on a later tick.
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Buffered line output that respects backpressure (large `nodes` dumps into a slow pipe). */
export class LineOutput {
  readonly #stream: NodeJS.WritableStream;
  readonly #limit: number;
  #pending: string[] = [];
  #pendingLength = 0;

  constructor(stream: NodeJS.WritableStream = process.stdout, flushAt = 1 << 16) {
    this.#stream = stream;
    this.#limit = flushAt;
  }

  /** Queues one line; returns a promise only when the buffer was flushed into a full pipe. */
  line(text: string): Promise<void> | undefined {
    this.#pending.push(text);
    this.#pendingLength += text.length + 1;
    if (this.#pendingLength < this.#limit) return undefined;
    return this.flush();
  }

  /**
   * Writes everything queued and waits for the stream to drain if it asked to. Rejects with
   * {@link OutputStopped} once stdout failed (its reader closed the pipe, a full disk, …).
   */
  async flush(): Promise<void> {
    this.#checkStdout();
    if (this.#pending.length === 0) return;
    const text = `${this.#pending.join("\n")}\n`;
    this.#pending = [];
    this.#pendingLength = 0;
    if (!this.#stream.write(text)) {
      try {
        await once(this.#stream, "drain");
      } catch (error) {
        throw new OutputStopped(error as NodeJS.ErrnoException);
      }
    }
  }

  #checkStdout(): void {
    if (this.#stream !== process.stdout) return;
    if (stdoutError !== undefined) throw new OutputStopped(stdoutError);
  }
}

/** Writes a single line to stdout (small outputs); dropped once stdout failed. */
export function printLine(text: string): void {
  if (stdoutError !== undefined || process.stdout.destroyed) return;
  process.stdout.write(`${text}\n`);
}
