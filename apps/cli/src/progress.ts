/**
 * A one-line progress indicator on stderr for one labelled phase of a command: done/total (when
 * the total is known), percent, rate, elapsed time and ETA. Drawn only when stderr is a terminal
 * (quiet in pipes, files and CI) unless BINTRIE_PROGRESS=1 asks for it anyway (then one line per
 * redraw, and a final line when the phase ends); redrawn at most ten times a second.
 * BINTRIE_NO_PROGRESS turns it off. Progress never fails a command: once its stream fails (the
 * reader of stderr went away, a full disk), it stops drawing.
 */
export class Progress {
  readonly #stream: NodeJS.WriteStream;
  readonly #label: string;
  readonly #total: number | undefined;
  readonly #unit: string;
  #enabled: boolean;
  readonly #lines: boolean;
  readonly #start = Date.now();
  #lastDraw = 0;
  #drawn = false;
  #done = 0;
  /** `#done` at the last draw (a line-per-draw phase ends without repeating its last line). */
  #drawnDone = -1;

  constructor(
    label: string,
    total?: number,
    unit = "",
    stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.#stream = stream;
    this.#label = label;
    this.#total = total;
    this.#unit = unit;
    const forced = process.env.BINTRIE_PROGRESS === "1";
    this.#enabled =
      process.env.BINTRIE_NO_PROGRESS === undefined && (stream.isTTY === true || forced);
    this.#lines = stream.isTTY !== true;
    if (this.#enabled) watchStream(stream);
  }

  /** Reports `done` units of work so far (cheap to call often). */
  update(done: number): void {
    this.#done = done;
    if (!this.#enabled) return;
    const now = Date.now();
    if (now - this.#lastDraw < 100) return;
    this.#lastDraw = now;
    this.#draw(now);
  }

  /** Ends the phase: clears the line (a terminal) or prints its final state (BINTRIE_PROGRESS=1). */
  done(): void {
    if (!this.#enabled) return;
    if (this.#lines) {
      if (this.#drawnDone !== this.#done) this.#draw(Date.now());
    } else if (this.#drawn) {
      this.#write("\r\x1b[K");
    }
    this.#drawn = false;
  }

  #draw(now: number): void {
    const seconds = Math.max((now - this.#start) / 1000, 0.001);
    const done = this.#done;
    this.#drawnDone = done;
    const rate = done / seconds;
    const count = (n: number) => Math.round(n).toLocaleString("en-US");
    let text = `${this.#label}: ${count(done)}`;
    if (this.#total !== undefined && this.#total > 0) {
      const fraction = Math.min(done / this.#total, 1);
      const eta = rate > 0 ? Math.max(this.#total - done, 0) / rate : Number.NaN;
      text += `/${count(this.#total)}${this.#unit} ${(fraction * 100).toFixed(1)}%, ${count(rate)}${this.#unit}/s, elapsed ${duration(seconds)}, ETA ${Number.isFinite(eta) ? duration(eta) : "?"}`;
    } else {
      text += `${this.#unit}, ${count(rate)}${this.#unit}/s, elapsed ${duration(seconds)}`;
    }
    if (this.#lines) {
      this.#write(`${text}\n`);
    } else {
      this.#write(`\r${text}\x1b[K`);
      this.#drawn = true;
    }
  }

  /** Writes to the stream unless it failed; a failure turns this indicator off. */
  #write(text: string): void {
    if (failed.has(this.#stream) || this.#stream.destroyed) {
      this.#enabled = false;
      return;
    }
    try {
      this.#stream.write(text);
    } catch {
      this.#enabled = false;
    }
  }
}

/** Streams that emitted an error (a closed pipe): progress no longer draws on them. */
const failed = new WeakSet<NodeJS.WriteStream>();
const watched = new WeakSet<NodeJS.WriteStream>();

/** Records the stream's errors instead of letting them be uncaught exceptions (once per stream). */
function watchStream(stream: NodeJS.WriteStream): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on("error", () => failed.add(stream));
}

/** 0.4s, 12s, 3m05s, 1h02m. */
function duration(seconds: number): string {
  if (seconds < 10) return `${seconds.toFixed(1)}s`;
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}
