/** A one-line progress bar redrawn with `\r` on a terminal; silent when not a TTY. */
export class ProgressBar {
  readonly interactive: boolean;
  readonly #out: { write(text: string): unknown };
  readonly #total: number;
  readonly #width: number;

  constructor(out: { write(text: string): unknown; isTTY?: boolean }, total: number, width = 30) {
    this.#out = out;
    this.#total = Math.max(1, total);
    this.#width = width;
    this.interactive = out.isTTY === true;
  }

  update(done: number, label: string): void {
    if (!this.interactive) return;
    const filled = Math.round((Math.min(done, this.#total) / this.#total) * this.#width);
    const bar = `${"#".repeat(filled)}${"-".repeat(this.#width - filled)}`;
    this.#out.write(`\r[${bar}] ${done}/${this.#total} ${label}\u001b[K`);
  }

  done(): void {
    if (this.interactive) this.#out.write("\n");
  }
}
