import { BinaryTree, getHasher, MemoryStore } from "@bintrie/core";
import { describe, expect, it } from "vitest";
import { collectEntries, hex, sharedUpdate, sharedWorkloadWith } from "../src/index.js";
import { random1000Checkpoints, sha256, sharedWorkload } from "../src/node.js";

describe("the shared workload", () => {
  it("starts with key_0 = sha256(8 zero bytes) and value_0 = sha256(key_0)", () => {
    const { keys, values } = sharedWorkload(1);
    expect(hex(keys[0]!)).toBe("af5570f5a1810b7af78caf4bc70a660f0df51e42baf91d4de5b2328de0e83dfc");
    expect(values[0]).toEqual(sha256(keys[0]!));
  });

  it("is the same with the core hasher (benchmarks in browsers) as with node:crypto", () => {
    const hasher = getHasher("sha256");
    const core = (data: Uint8Array) => hasher.digest(data);
    const n = 64;
    const fromNode = sharedWorkload(n);
    expect(sharedWorkloadWith(core, n)).toEqual(fromNode);
    for (let k = 0; k < 20; k++) {
      expect(sharedUpdate(core, k, n, fromNode.values)).toEqual(
        sharedUpdate(sha256, k, n, fromNode.values),
      );
    }
  });

  it("gives the reference vectors' roots at their small checkpoints (vendored reference vectors)", () => {
    const checkpoints = random1000Checkpoints().filter((c) => c.inserted <= 100);
    expect(checkpoints.length).toBeGreaterThan(0);
    for (const checkpoint of checkpoints) {
      const { keys, values } = sharedWorkload(checkpoint.inserted);
      const tree = new BinaryTree();
      for (let i = 0; i < keys.length; i++) tree.put(keys[i]!, values[i]!);
      expect(`0x${hex(tree.hash())}`).toBe(checkpoint.expected_root.sha256);
    }
  });
});

describe("collectEntries", () => {
  it("drains entries() in order as hex pairs", async () => {
    const store = new MemoryStore();
    await store.batch([
      { type: "put", key: Uint8Array.of(2), value: Uint8Array.of(0xbb) },
      { type: "put", key: Uint8Array.of(1), value: Uint8Array.of(0xaa) },
    ]);
    expect(await collectEntries(store.entries())).toEqual([
      ["01", "aa"],
      ["02", "bb"],
    ]);
  });
});
