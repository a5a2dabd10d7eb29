import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Temp directories for databases, removed by `removeAll()` (call it in afterAll). */
export function tempDirs(label: string): { make(): string; removeAll(): void } {
  const made: string[] = [];
  return {
    make() {
      const dir = mkdtempSync(join(tmpdir(), `bintrie-${label}-`));
      made.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
