import { createReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Bytes per read of a run file during the merge. */
const READ_CHUNK = 1 << 20;

/**
 * The external sort's run storage on a Node file system: each sorted run is one file in a
 * private temporary directory (under `parent`, default the OS temp directory), read back in
 * 1 MiB chunks and deleted once merged. `dispose()` removes the directory and whatever is left.
 * Structurally a core `RunStorage`.
 */
export class FsRunStorage {
  readonly #parent: string;
  #dir: Promise<string> | undefined;
  #runs = 0;

  constructor(parent: string = tmpdir()) {
    this.#parent = parent;
  }

  /** Writes one run; `run` is copied to disk before the promise settles. */
  async writeRun(run: Uint8Array): Promise<string> {
    this.#dir ??= mkdtemp(join(this.#parent, "bintrie-sort-"));
    const file = join(await this.#dir, `run-${this.#runs++}.bin`);
    await writeFile(file, run);
    return file;
  }

  /** The bytes of a run, in order. */
  async *readRun(handle: string): AsyncIterable<Uint8Array> {
    for await (const chunk of createReadStream(handle, { highWaterMark: READ_CHUNK })) {
      yield chunk as Buffer;
    }
  }

  async deleteRun(handle: string): Promise<void> {
    await rm(handle, { force: true });
  }

  /** Removes the temporary directory and every run still in it. */
  async dispose(): Promise<void> {
    if (this.#dir === undefined) return;
    const dir = await this.#dir.catch(() => undefined);
    this.#dir = undefined;
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }
}
