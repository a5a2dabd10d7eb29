/**
 * A one-line progress indicator on stderr, shown only when stderr is a terminal (quiet in pipes,
 * files and CI) and redrawn at most ten times a second.
 */
export class Progress {
  readonly #stream: NodeJS.WriteStream;
  readonly #label: string;
  readonly #total: number | undefined;
  readonly #enabled: boolean;
  readonly #start = Date.now();
  #lastDraw = 0;
  #drawn = false;

  constructor(label: string, total?: number, stream: NodeJS.WriteStream = process.stderr) {
    this.#stream = stream;
    this.#label = label;
    this.#total = total;
    this.#enabled = stream.isTTY === true && process.env.BINTRIE_NO_PROGRESS === undefined;
  }

  /** Reports `done` units of work so far (cheap to call often). */
  update(done: number, unit = ""): void {
    if (!this.#enabled) return;
    const now = Date.now();
    if (now - this.#lastDraw < 100) return;
    this.#lastDraw = now;
    const seconds = Math.max((now - this.#start) / 1000, 0.001);
    const rate = Math.round(done / seconds);
    let text = `${this.#label} ${done.toLocaleString("en-US")}${unit}`;
    if (this.#total !== undefined && this.#total > 0) {
      const fraction = Math.min(done / this.#total, 1);
      const width = 24;
      const filled = Math.round(fraction * width);
      text = `${this.#label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${(fraction * 100).toFixed(1)}% ${done.toLocaleString("en-US")}/${this.#total.toLocaleString("en-US")}${unit}`;
    }
    this.#stream.write(`\r${text} ${rate.toLocaleString("en-US")}/s\x1b[K`);
    this.#drawn = true;
  }

  /** Clears the line. */
  done(): void {
    if (this.#drawn) this.#stream.write("\r\x1b[K");
    this.#drawn = false;
  }
}
