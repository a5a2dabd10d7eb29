import { createReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunStorage } from "../../src/builder/index.js";

/** Sort runs as files in a temporary directory (a Node app's RunStorage, for tests). */
export class FsRunStorage implements RunStorage {
  readonly dir: string;
  written = 0;
  deleted = 0;
  #next = 0;

  private constructor(dir: string) {
    this.dir = dir;
  }

  static async create(): Promise<FsRunStorage> {
    return new FsRunStorage(await mkdtemp(join(tmpdir(), "bintrie-runs-")));
  }

  async writeRun(chunks: AsyncIterable<Uint8Array>): Promise<string> {
    const file = join(this.dir, `run-${this.#next++}.bin`);
    await writeFile(file, chunks);
    this.written++;
    return file;
  }

  readRun(handle: string): AsyncIterable<Uint8Array> {
    return createReadStream(handle, { highWaterMark: 64 * 1024 });
  }

  async deleteRun(handle: string): Promise<void> {
    await rm(handle, { force: true });
    this.deleted++;
  }

  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
