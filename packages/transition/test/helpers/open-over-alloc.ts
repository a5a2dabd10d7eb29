import type { DeletionMode, GenesisAlloc, KVStore } from "@bintrie/core";
import { buildMptBase } from "../../src/build-mpt-base.js";
import { preimagesFromAlloc } from "../../src/preimage-source.js";
import { TransitionState } from "../../src/transition-state.js";

/** Writes `alloc` as the MPT base into `store` and starts a transition over it. */
export async function openOverAlloc(
  store: KVStore,
  alloc: GenesisAlloc,
  deletionMode: DeletionMode = "remove",
) {
  const { root } = await buildMptBase(store, alloc);
  const preimages = preimagesFromAlloc(alloc);
  const t = await TransitionState.open(store, { baseRoot: root, preimages, deletionMode });
  return { root, preimages, t };
}
