import { BinaryTree } from "@bintrie/core";
import { describe, expect, it } from "vitest";
import { hex } from "./bytes.js";
import { withChromiumPage } from "./chromium-page.js";
import { PAGE_API_NAME, type ReloadPageApi } from "./reload-api.js";
import { finalContents, firstCommit, secondCommit } from "./reload-workload.js";

/** The root Node computes for the same two commits, with no store at all. */
function expectedRoot(): string {
  const tree = new BinaryTree();
  for (const { key, value } of [...firstCommit(), ...secondCommit()]) tree.put(key, value);
  return hex(tree.hash());
}

type PageWindow = { [PAGE_API_NAME]: ReloadPageApi };

/**
 * The reload test, driven from Node: opens `pageEntry` (a module calling exposeReloadPage) in
 * Chromium, builds the tree there, reloads the page and expects the reopened tree to have the
 * root Node computes and every value. `storeName` names the store in the describe block.
 */
export function describePageReload(storeName: string, pageEntry: string): void {
  describe(`${storeName} across a page reload in Chromium`, () => {
    it("reopens the committed tree after the reload with the same root and every value", async () => {
      const root = expectedRoot();
      await withChromiumPage(pageEntry, async (page) => {
        await page.waitForFunction((name) => name in globalThis, PAGE_API_NAME);
        const location = `bintrie-reload-${Date.now()}`;
        const built = await page.evaluate(
          ([name, loc]) =>
            (globalThis as unknown as PageWindow)[name as typeof PAGE_API_NAME].build(loc!),
          [PAGE_API_NAME, location],
        );
        expect(built).toBe(root);

        await page.reload();
        await page.waitForFunction((name) => name in globalThis, PAGE_API_NAME);
        const reopened = await page.evaluate(
          ([name, loc]) =>
            (globalThis as unknown as PageWindow)[name as typeof PAGE_API_NAME].reopen(loc!),
          [PAGE_API_NAME, location],
        );
        expect(reopened).toEqual({ root, mismatches: 0, keys: finalContents().length });
      });
    });
  });
}
