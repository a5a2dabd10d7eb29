import type { CheckpointJournal } from "./checkpoint-journal.js";
import { LOOKUP_UNRESOLVED, type TreeWalker } from "./tree-walker.js";

/**
 * One synchronous attempt at a 'remove'-mode batch, inside its own journal level: either every
 * key is removed (the level is kept, and returns no routes), or nothing changes (the level is
 * reverted) and the result is one key per node the attempt met still in the store: a path, or
 * a sibling a collapse must inspect. The caller loads those and tries again. Loading adds no
 * content, so a failed load leaves the tree as the batch found it, and the attempt that lands
 * has no await inside it: writes made while the loads ran come before the whole batch.
 *
 * With every node in memory (`allLoaded`) the removals run straight: none can meet the store.
 * `andThen` runs once, right after the removals of the attempt that lands, inside its level.
 * A witness recorder is detached during attempts that may be reverted (it cannot forget what
 * it saw); once an attempt has landed it is reverted and run again with the recorder, so the
 * witness sees exactly the walks of the removals that stay.
 */
export function removeAllOrNothing(
  walker: TreeWalker,
  journal: CheckpointJournal,
  keys: readonly Uint8Array[],
  allLoaded: boolean,
  andThen?: () => void,
): Uint8Array[] {
  if (allLoaded) {
    // No placeholder anywhere: no removal can stop half-way, and the journal's cost is saved.
    for (const key of keys) walker.removeKey(key);
    andThen?.();
    return [];
  }
  const recorder = walker.recorder;
  walker.recorder = undefined;
  let routes: Uint8Array[];
  try {
    routes = attempt(walker, journal, keys);
  } finally {
    walker.recorder = recorder;
  }
  if (routes.length > 0) return routes;
  if (recorder !== undefined) {
    journal.revert();
    // The same state and the same walks: this attempt lands too.
    routes = attempt(walker, journal, keys);
    if (routes.length > 0) return routes;
  }
  try {
    // Writes that go with the removals (updateMany), in the same level: they need no loads.
    andThen?.();
  } catch (error) {
    journal.revert();
    throw error;
  }
  journal.commit();
  return routes;
}

/** Tries every removal; leaves its journal level open exactly when all of them landed. */
function attempt(
  walker: TreeWalker,
  journal: CheckpointJournal,
  keys: readonly Uint8Array[],
): Uint8Array[] {
  const routes: Uint8Array[] = [];
  journal.open();
  try {
    for (const key of keys) {
      // A key that meets an unloaded node is skipped: the rest still report what they need,
      // so one store round serves many collapses.
      if (walker.removeKey(key) === LOOKUP_UNRESOLVED) routes.push(walker.routeToMiss(key));
    }
  } catch (error) {
    journal.revert();
    throw error;
  }
  if (routes.length > 0) journal.revert();
  return routes;
}
