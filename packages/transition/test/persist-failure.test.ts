// Two-phase persist: a rejected batch leaves overlay and side tables as they were, so the next
// persist writes all of it (the reopened state equals one that never saw the failure).
import { EMPTY_CODE_HASH, MemoryStore } from "@bintrie/core";
import { FaultyStore } from "@bintrie/core/conformance";
import { describe, expect, it } from "vitest";
import { TransitionState } from "../src/transition-state.js";
import { hex, word } from "./helpers/bytes.js";
import { A, B, C, openScenario } from "./helpers/scenario.js";

const ZERO = hex(new Uint8Array(32));

describe("transition persist after a rejected batch", () => {
  for (const mode of ["zero", "remove"] as const) {
    it(`'${mode}': the retry writes the overlay, the side tables and the record`, async () => {
      const inner = new MemoryStore();
      const store = new FaultyStore(inner);
      const { t, preimages } = await openScenario({ mode, store });
      await t.deleteAccount(A); // a wipe mark (side table)
      await t.putStorage(B, 1n, Uint8Array.of(0)); // zero: a delete (tombstone in 'remove' mode)
      await t.putStorage(B, 2n, Uint8Array.of(5)); // a written-slot record
      await t.putAccount(C, { nonce: 1n, balance: 2n, codeSize: 0, codeHash: EMPTY_CODE_HASH });
      const root = t.hash();
      store.failNextBatches(1);
      await expect(t.persist()).rejects.toMatchObject({ code: "STORE_IO" });
      expect(await t.persist()).toEqual(root);
      const reopened = await TransitionState.open(inner, { preimages });
      expect(hex(reopened.hash())).toBe(hex(root));
      expect(await reopened.getAccount(A)).toBeUndefined();
      for (const slot of [0n, 64n, 300n])
        expect(hex(await reopened.getStorage(A, slot))).toBe(ZERO);
      expect(hex(await reopened.getStorage(B, 1n))).toBe(ZERO);
      expect(hex(await reopened.getStorage(B, 2n))).toBe(hex(word(5n)));
      expect((await reopened.getAccount(C))?.balance).toBe(2n);
      // The written-slot record survived: deleting B now clears slot 2 as well.
      await reopened.deleteAccount(B);
      expect(hex(await reopened.getStorage(B, 2n))).toBe(ZERO);
    });
  }
});
