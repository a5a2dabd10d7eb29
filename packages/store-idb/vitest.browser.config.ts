import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "store-idb-browser",
    include: ["test/browser/**/*.test.ts"],
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
