import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ChromiumNotFoundError, findChromium } from "../src/find-chromium.js";

const dir = mkdtempSync(join(tmpdir(), "find-chromium-"));
const fake = join(dir, "chromium");
writeFileSync(fake, "#!/bin/sh\n");
chmodSync(fake, 0o755);
const notExecutable = join(dir, "plain");
writeFileSync(notExecutable, "");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("findChromium", () => {
  it("prefers CHROMIUM_PATH over the usual paths", () => {
    expect(findChromium({ env: { CHROMIUM_PATH: fake }, candidates: ["/bin/sh"] })).toBe(fake);
  });

  it("takes the first executable of the candidates", () => {
    const candidates = [join(dir, "missing"), notExecutable, fake, "/bin/sh"];
    expect(findChromium({ env: {}, candidates, install: false })).toBe(fake);
  });

  it("stops with one line naming CHROMIUM_PATH when it is not executable", () => {
    expect(() => findChromium({ env: { CHROMIUM_PATH: notExecutable } })).toThrow(
      new ChromiumNotFoundError(
        `CHROMIUM_PATH=${notExecutable} is not an executable file: point it at Chromium or unset it`,
      ),
    );
  });

  it("stops with one line saying what to run when nothing is found and installing is off", () => {
    const missing = join(dir, "missing");
    let message = "";
    try {
      findChromium({ env: {}, candidates: [missing], install: false });
    } catch (error) {
      expect(error).toBeInstanceOf(ChromiumNotFoundError);
      message = (error as Error).message;
    }
    expect(message).toBe(
      `Chromium not found (CHROMIUM_PATH, ${missing}): run sudo apt-get update && sudo apt-get install -y chromium (or set CHROMIUM_PATH to a Chromium binary)`,
    );
    expect(message).not.toContain("\n");
  });
});
