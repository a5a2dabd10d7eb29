/** A growable stack of uint32 values on a typed array (free lists, DFS stacks, index lists). */
export class U32Stack {
  data: Uint32Array;
  length = 0;

  constructor(initialCapacity = 64) {
    this.data = new Uint32Array(initialCapacity);
    // Stored again after its initialiser: V8 then treats the field as mutable from the first
    // stack on. Otherwise it counts as constant until some stack first changes it (the free
    // lists of a bulk-built tree never do; the stale log's clear at the end of the first build
    // does), and the optimised code of the pools' allocation paths, made in that first build,
    // is thrown away then and compiled again inside the next build.
    this.length = 0;
  }

  push(value: number): void {
    if (this.length === this.data.length) this.#grow(this.length + 1);
    this.data[this.length++] = value;
  }

  pop(): number {
    return this.data[--this.length]!;
  }

  clear(): void {
    this.length = 0;
  }

  ensureCapacity(capacity: number): void {
    if (capacity > this.data.length) this.#grow(capacity);
  }

  /** An independent stack with the same contents. */
  copy(): U32Stack {
    const copy = new U32Stack(Math.max(1, this.data.length));
    copy.data.set(this.data.subarray(0, this.length));
    copy.length = this.length;
    return copy;
  }

  #grow(minimum: number): void {
    let capacity = this.data.length * 2;
    while (capacity < minimum) capacity *= 2;
    const next = new Uint32Array(capacity);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}
