// Automated check of the page in Debian's headless Chromium: add three accounts, reload, and
// expect the same root and count after the reload.
import { requireChromium } from "@bintrie/store-testkit/chromium";
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const server = await serve(0);
const { port } = server.address();
const browser = await chromium.launch({
  executablePath: requireChromium(),
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
  ],
});
let failed = false;
try {
  const page = await browser.newPage();
  page.on("pageerror", (error) => {
    console.error(`page error: ${error.message}`);
    failed = true;
  });
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => globalThis.bintrieExample !== undefined);
  await page.evaluate(() => globalThis.bintrieExample.ready);
  for (let i = 0; i < 3; i++) await page.evaluate(() => globalThis.bintrieExample.addAccount());
  const before = await page.evaluate(async () => [
    await globalThis.bintrieExample.count(),
    globalThis.bintrieExample.root(),
  ]);
  await page.reload();
  await page.waitForFunction(() => globalThis.bintrieExample !== undefined);
  await page.evaluate(() => globalThis.bintrieExample.ready);
  const after = await page.evaluate(async () => [
    await globalThis.bintrieExample.count(),
    globalThis.bintrieExample.root(),
  ]);
  const fast = await page.evaluate(() => globalThis.bintrieExample.fastHashing);
  console.log(`WebAssembly SHA-256 kernel on the main thread: ${fast}`);
  if (fast !== true) failed = true;
  console.log(`before reload: ${before[0]} accounts, root ${before[1]}`);
  console.log(`after reload:  ${after[0]} accounts, root ${after[1]}`);
  if (before[0] !== 3 || after[0] !== before[0] || after[1] !== before[1]) failed = true;
} finally {
  await browser.close();
  server.close();
}
if (failed) {
  console.error("browser example check failed");
  process.exit(1);
}
console.log("example check ok");
