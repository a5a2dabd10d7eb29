import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

// `pnpm bench`, browser half: the same benchmark on browser-level in headless Chromium.
export default defineProject({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    name: "store-level-bench-browser",
    include: ["bench/**/*.browser-bench.ts"],
    testTimeout: 600_000,
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
            args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
          },
        },
      ],
    },
  },
});
