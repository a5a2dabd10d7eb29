import { once } from "node:events";

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

  /** Writes everything queued and waits for the stream to drain if it asked to. */
  async flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const text = `${this.#pending.join("\n")}\n`;
    this.#pending = [];
    this.#pendingLength = 0;
    if (!this.#stream.write(text)) await once(this.#stream, "drain");
  }
}

/** Writes a single line to stdout (small outputs). */
export function printLine(text: string): void {
  process.stdout.write(`${text}\n`);
}
