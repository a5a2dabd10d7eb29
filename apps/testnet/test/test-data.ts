import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A path under this package's vendored test data (test/data, see the PROVENANCE.md files). */
export function dataPath(relative: string): string {
  return fileURLToPath(new URL(`./data/${relative}`, import.meta.url));
}

export function readDataJson<T>(relative: string): T {
  return JSON.parse(readFileSync(dataPath(relative), "utf8")) as T;
}
