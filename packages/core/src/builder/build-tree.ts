import { assertKnownOptions, describeValue } from "@bintrie/codec";
import { optionKeys } from "../options/known-options.js";
import type { NodeWrite } from "../tree/node-set.js";
import type { BuildInput, BuildSource } from "./build-input.js";
import { BuilderError } from "./builder-error.js";
import type { NodeSink } from "./node-sink.js";
import { StreamingBuilder, type StreamingBuilderOptions } from "./streaming-builder.js";

export type BuildTreeOptions = Omit<StreamingBuilderOptions, "onNode" | "onRecord" | "keyPrefix">;

const BUILD_TREE_OPTION_KEYS = optionKeys<BuildTreeOptions>()([
  "groupDepth",
  "scheme",
  "hasher",
  "stemBatchSize",
]);

/** What a finished build produced. */
export interface BuildResult {
  /** The root hash (32 zero bytes for an empty input). */
  readonly root: Uint8Array;
  readonly groupDepth: number;
  /** Stems in the tree. */
  readonly stems: number;
  /** Node records emitted (stems plus internal or group nodes). */
  readonly nodes: number;
}

/**
 * Streams sorted input (key/value entries in increasing key order, or whole stems in increasing
 * stem order, or both) into a tree and hands its node records to `sink`, one call per batch of
 * stems. Memory stays O(tree depth) plus one batch, whatever the input size.
 *
 * @example
 * ```ts
 * import { buildTree } from "@bintrie/core/builder";
 *
 * const written = [];
 * const { root, stems } = await buildTree(
 *   [{ key: new Uint8Array(32).fill(1), value: new Uint8Array(32).fill(2) }],
 *   { write: (nodes) => void written.push(...nodes) },
 * ); // stems === 1
 * ```
 */
export async function buildTree(
  source: BuildSource,
  sink: NodeSink,
  options: BuildTreeOptions = {},
): Promise<BuildResult> {
  assertKnownOptions(options, BUILD_TREE_OPTION_KEYS, "buildTree", BuilderError);
  if (sink === null || typeof sink !== "object" || typeof sink.write !== "function") {
    throw new BuilderError(
      "INVALID_OPTION",
      `buildTree: sink must be a NodeSink (an object with write(nodes)), got ${describeValue(sink)}`,
    );
  }
  let pending: NodeWrite[] = [];
  const builder = new StreamingBuilder({ ...options, onNode: (node) => pending.push(node) });
  const drain = (): void | Promise<void> => {
    if (pending.length === 0) return;
    const nodes = pending;
    pending = [];
    return sink.write(nodes);
  };
  if (isAsyncIterable(source)) {
    for await (const item of source) {
      addInput(builder, item);
      const written = drain();
      if (written !== undefined) await written;
    }
  } else if (isIterable(source)) {
    for (const item of source) {
      addInput(builder, item);
      const written = drain();
      if (written !== undefined) await written;
    }
  } else {
    throw new BuilderError(
      "INVALID_INPUT",
      `buildTree: source must be an iterable or async iterable, got ${describeValue(source)}`,
    );
  }
  const root = builder.finish();
  await drain();
  return {
    root,
    groupDepth: builder.groupDepth,
    stems: builder.stemCount,
    nodes: builder.nodeCount,
  };
}

/** Feeds one input item (entry or stem) to a builder. */
export function addInput(builder: StreamingBuilder, item: BuildInput): void {
  if (item !== null && typeof item === "object") {
    if ("stem" in item) {
      builder.addStem(item.stem, item.values);
      return;
    }
    if ("key" in item) {
      builder.addEntry(item.key, item.value);
      return;
    }
  }
  throw new BuilderError(
    "INVALID_INPUT",
    `build input must be {key, value} or {stem, values}, got ${describeValue(item)}`,
  );
}

function isAsyncIterable(x: unknown): x is AsyncIterable<BuildInput> {
  return x !== null && typeof x === "object" && Symbol.asyncIterator in x;
}

function isIterable(x: unknown): x is Iterable<BuildInput> {
  return x !== null && typeof x === "object" && Symbol.iterator in x;
}
