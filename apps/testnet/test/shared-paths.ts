import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A path under the read-only /work/shared folder, relative to this file. */
export function sharedPath(relative: string): string {
  return fileURLToPath(new URL(`../../../../shared/${relative}`, import.meta.url));
}

export function readSharedJson<T>(relative: string): T {
  return JSON.parse(readFileSync(sharedPath(relative), "utf8")) as T;
}
