/**
 * Runs async operations one at a time, in call order. A transition operation spans several
 * awaits (overlay loads, base reads, side-table scans); interleaving two of them — say a
 * conversion step and a deleteAccount of the account it is copying — could break the rule that
 * every base leaf is either hidden or copied exactly once.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(operation);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
