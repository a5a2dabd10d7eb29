import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { build } from "esbuild";
import { chromium, type Page } from "playwright-core";
import { findChromium } from "./find-chromium.js";

/**
 * Serves `entry` (bundled for the browser by esbuild, in memory) on 127.0.0.1 and opens it in
 * Debian's headless Chromium through playwright-core; vitest's browser mode cannot reload a page,
 * this can. Runs `body` with the page, then tears everything down.
 */
export async function withChromiumPage(
  entry: string,
  body: (page: Page) => Promise<void>,
): Promise<void> {
  const bundle = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const script = bundle.outputFiles[0]!.text;
  const server = createServer((request, response) => {
    if (request.url === "/page.js") {
      response.writeHead(200, { "content-type": "text/javascript" });
      response.end(script);
    } else {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(
        '<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>',
      );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`http://127.0.0.1:${port}/`);
    try {
      await body(page);
    } catch (error) {
      if (errors.length > 0) throw new Error(`${String(error)}; page errors: ${errors.join("; ")}`);
      throw error;
    }
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
