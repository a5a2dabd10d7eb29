/**
 * vitest browser mode in Debian's Chromium (no browser download), as the `browser` block of a
 * store package's test or benchmark config. CHROMIUM_PATH overrides the binary.
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
          executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
