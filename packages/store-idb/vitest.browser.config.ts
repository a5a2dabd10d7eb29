import { defineProject } from "vitest/config";

// Generous limits: they catch hangs, not slowness (a loaded 2-core CI machine runs property
// tests and child processes several times slower than an idle one).
const TIMEOUTS = { testTimeout: 60_000, hookTimeout: 60_000 };

export default defineProject({
  test: {
    name: "store-idb-browser",
    include: ["test/browser/**/*.test.ts"],
    ...TIMEOUTS,
    browser: {
      enabled: true,
      provider: "playwright",
      headless: true,
      screenshotFailures: false,
      instances: [
        {
          browser: "chromium",
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
    },
  },
});
