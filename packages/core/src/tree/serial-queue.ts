/**
 * Runs async operations one at a time, in call order: the outcome of overlapping calls is the
 * outcome of running them one after another. An operation that throws does not stop the ones
 * queued behind it. `idle` says whether anything is queued or running, so synchronous work that
 * must not disturb an operation suspended at an await (eviction) can stand back.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();
  #pending = 0;

  /** True when no operation is queued or running. */
  get idle(): boolean {
    return this.#pending === 0;
  }

  run<T>(operation: () => Promise<T>): Promise<T> {
    this.#pending++;
    const result = this.#tail.then(operation);
    this.#tail = result.then(
      () => {
        this.#pending--;
      },
      () => {
        this.#pending--;
      },
    );
    return result;
  }
}
