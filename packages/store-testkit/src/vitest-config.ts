import { requireChromium } from "./find-chromium.js";

/**
 * vitest browser mode in Debian's Chromium (no browser download), as the `browser` block of a
 * store package's test or benchmark config. The binary comes from `requireChromium()`:
 * CHROMIUM_PATH, the usual paths, or apt-get's `chromium` installed on the spot.
 */
export function chromiumBrowser() {
  return {
    enabled: true,
    provider: "playwright" as const,
    headless: true,
    screenshotFailures: false,
    instances: [
      {
        browser: "chromium" as const,
        launch: {
          executablePath: requireChromium(),
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
          ],
        },
      },
    ],
  };
}
