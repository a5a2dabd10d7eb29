import type { NodeWrite } from "../tree/node-set.js";

/**
 * Where a build sends its node records. `write` gets the records completed by one batch of
 * stems, children before parents; returning a promise makes the build wait for it
 * (backpressure), so a slow store never lets records pile up in memory.
 */
export interface NodeSink {
  write(nodes: NodeWrite[]): void | Promise<void>;
}
