import { U32Stack } from "./u32-stack.js";

/**
 * Internal node indexes with their depths, as a deepest-first hash pass takes them
 * (`StaleHasher.hashInternals(list.nodes.data, list.depths, 0, list.length)`).
 */
export class NodeDepthList {
  readonly nodes: U32Stack;
  /** depths[i]: the depth of nodes.data[i] (a node's depth is below 248). */
  depths: Uint8Array;

  constructor(initialCapacity = 1024) {
    this.nodes = new U32Stack(initialCapacity);
    this.depths = new Uint8Array(initialCapacity);
  }

  get length(): number {
    return this.nodes.length;
  }

  set length(n: number) {
    this.nodes.length = n;
  }

  push(node: number, depth: number): void {
    const n = this.nodes.length;
    if (n === this.depths.length) {
      const grown = new Uint8Array(n * 2);
      grown.set(this.depths);
      this.depths = grown;
    }
    this.depths[n] = depth;
    this.nodes.push(node);
  }

  /** Room for `extra` more entries, written to nodes.data / depths directly (then set length). */
  reserve(extra: number): void {
    const n = this.nodes.length + extra;
    this.nodes.ensureCapacity(n);
    if (this.depths.length < n) {
      const grown = new Uint8Array(this.nodes.data.length);
      grown.set(this.depths);
      this.depths = grown;
    }
  }

  /** Replaces the contents with the first `n` of `nodes` and `depths` (block copies). */
  assign(nodes: Uint32Array, depths: Uint32Array, n: number): void {
    const list = this.nodes;
    list.ensureCapacity(n);
    list.data.set(nodes.subarray(0, n));
    list.length = n;
    if (this.depths.length < n) this.depths = new Uint8Array(list.data.length);
    this.depths.set(depths.subarray(0, n));
  }

  clear(): void {
    this.nodes.clear();
  }
}
