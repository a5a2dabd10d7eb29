/**
 * Which chunks of a pool a tree still shares with its copy (`BinaryTree.copy()`): a shared chunk
 * is cloned by whichever side writes to it first, after which that side owns its clone.
 */
export class SharedChunks {
  readonly #marks: Uint8Array;

  private constructor(marks: Uint8Array) {
    this.#marks = marks;
  }

  /** The marks of a pool and of its new twin: the first `count` chunks shared by both. */
  static pair(count: number): [SharedChunks, SharedChunks] {
    const marks = new Uint8Array(count).fill(1);
    return [new SharedChunks(marks), new SharedChunks(marks.slice())];
  }

  /** True once per shared chunk: the caller clones chunk `c` now and owns it from then on. */
  claim(c: number): boolean {
    const marks = this.#marks;
    if (c >= marks.length || marks[c] === 0) return false;
    marks[c] = 0;
    return true;
  }
}
