import { execFileSync, spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";

/**
 * Where Debian, Ubuntu (apt or snap) and Chrome's own packages put the browser, in the order
 * they are tried after `CHROMIUM_PATH`.
 */
export const CHROMIUM_CANDIDATES: readonly string[] = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/snap/bin/chromium",
  "/usr/bin/google-chrome-stable",
  "/usr/bin/google-chrome",
];

/** What a user without root runs to get the browser the tests use. */
export const CHROMIUM_INSTALL_HINT =
  "sudo apt-get update && sudo apt-get install -y chromium (or set CHROMIUM_PATH to a Chromium binary)";

/** Chromium could not be found nor installed; the message is one line that says what to run. */
export class ChromiumNotFoundError extends Error {
  readonly code = "CHROMIUM_NOT_FOUND";
  constructor(message: string) {
    super(message);
    this.name = "ChromiumNotFoundError";
  }
}

export interface FindChromiumOptions {
  /** Environment to read `CHROMIUM_PATH` from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Paths tried after `CHROMIUM_PATH` (default {@link CHROMIUM_CANDIDATES}). */
  readonly candidates?: readonly string[];
  /** Install Debian's `chromium` with apt-get when missing and allowed to (default true). */
  readonly install?: boolean;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function firstExecutable(candidates: readonly string[]): string | undefined {
  return candidates.find(isExecutable);
}

/** `[]` as root, `["sudo", "-n"]` with passwordless sudo, undefined when we may not install. */
function privilegePrefix(): string[] | undefined {
  if (!isExecutable("/usr/bin/apt-get")) return undefined;
  if (process.getuid?.() === 0) return [];
  const sudo = spawnSync("sudo", ["-n", "true"], { stdio: "ignore" });
  return sudo.status === 0 ? ["sudo", "-n"] : undefined;
}

function aptInstallChromium(prefix: string[]): void {
  process.stderr.write(
    "Chromium not found: installing Debian's chromium (apt-get install -y chromium)\n",
  );
  const run = (args: string[]) => {
    const [command, ...rest] = [...prefix, ...args];
    execFileSync(command!, rest, {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  };
  try {
    run(["apt-get", "update", "-qq"]);
  } catch {
    // A machine without gpgv (seen) cannot verify fresh lists; the ones at hand may still hold
    // chromium, and the install says so if they do not.
    process.stderr.write("apt-get update failed: installing from the package lists at hand\n");
  }
  run(["apt-get", "install", "-y", "-qq", "chromium"]);
}

let found: string | undefined;

/**
 * The Chromium binary the browser tests launch (never a downloaded one): `CHROMIUM_PATH` if set,
 * else the first of the usual paths; when none exists and this user may install packages (root,
 * or passwordless sudo) Debian's `chromium` is installed with apt-get. Throws
 * {@link ChromiumNotFoundError} with one line saying what to run otherwise.
 */
export function findChromium(options: FindChromiumOptions = {}): string {
  const env = options.env ?? process.env;
  const candidates = options.candidates ?? CHROMIUM_CANDIDATES;
  const useCache = options.env === undefined && options.candidates === undefined;
  if (useCache && found !== undefined) return found;
  const override = env.CHROMIUM_PATH;
  if (override !== undefined && override !== "") {
    if (!isExecutable(override)) {
      throw new ChromiumNotFoundError(
        `CHROMIUM_PATH=${override} is not an executable file: point it at Chromium or unset it`,
      );
    }
    if (useCache) found = override;
    return override;
  }
  let path = firstExecutable(candidates);
  if (path === undefined && options.install !== false) {
    const prefix = privilegePrefix();
    if (prefix !== undefined) {
      try {
        aptInstallChromium(prefix);
      } catch (error) {
        const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
        throw new ChromiumNotFoundError(
          `installing chromium with apt-get failed (${reason}): run ${CHROMIUM_INSTALL_HINT}`,
        );
      }
      path = firstExecutable(candidates);
    }
  }
  if (path === undefined) {
    throw new ChromiumNotFoundError(
      `Chromium not found (CHROMIUM_PATH, ${candidates.join(", ")}): run ${CHROMIUM_INSTALL_HINT}`,
    );
  }
  if (useCache) found = path;
  return path;
}

/**
 * {@link findChromium} for a test entry point (vitest config, example check): on failure prints
 * the one-line message and exits 1 instead of a stack trace.
 */
export function requireChromium(): string {
  try {
    return findChromium();
  } catch (error) {
    if (!(error instanceof ChromiumNotFoundError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
