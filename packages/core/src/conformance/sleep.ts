// setTimeout is in every runtime the suite runs in (Node, browsers), but core's TypeScript lib
// has neither DOM nor Node types: declare just what is used.
declare function setTimeout(callback: () => void, ms: number): unknown;

/** Resolves after about `ms` milliseconds (a macrotask: calls in flight run meanwhile). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
