import { createReadStream, createWriteStream, existsSync, rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { RunStorage } from "@bintrie/core/builder";
import { CliError } from "./cli-error.js";

/** Bytes per read of a run file during the merge. */
const READ_CHUNK = 1 << 20;

/**
 * The external sort's run storage on a Node file system: each sorted run is one file in a
 * private temporary directory (under `parent`, default the OS temp directory), read back in
 * 1 MiB chunks and deleted once merged. `dispose()` removes the directory and whatever is left;
 * `disposeSync()` does the same synchronously (from a signal handler, just before the process
 * exits).
 */
export class FsRunStorage implements RunStorage {
  readonly #parent: string;
  #dir: Promise<string> | undefined;
  /** The directory once created (until disposed). */
  #created: string | undefined;
  #runs = 0;

  constructor(parent: string = tmpdir()) {
    this.#parent = parent;
  }

  /**
   * Creates the private directory now, so a missing, read-only or non-directory parent fails
   * before any work (a BAD_INPUT CliError naming `what`, e.g. "--tmp-dir DIR") instead of when
   * the first run is written.
   */
  async prepare(what = `temporary directory ${this.#parent}`): Promise<void> {
    this.#dir ??= this.#create();
    try {
      await this.#dir;
    } catch (error) {
      this.#dir = undefined;
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === "ENOENT"
          ? existsSync(this.#parent)
            ? "cannot create files there"
            : "no such directory"
          : code === "ENOTDIR"
            ? "not a directory"
            : code === "EACCES" || code === "EPERM" || code === "EROFS"
              ? "not writable"
              : (error as Error).message;
      throw new CliError("BAD_INPUT", `${what}: ${why} (the external sort writes its runs there)`);
    }
  }

  /** Writes one run, streamed chunk by chunk into its own file. */
  async writeRun(chunks: AsyncIterable<Uint8Array>): Promise<string> {
    this.#dir ??= this.#create();
    const file = join(await this.#dir, `run-${this.#runs++}.bin`);
    await pipeline(Readable.from(chunks, { objectMode: false }), createWriteStream(file));
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
    // Still known to disposeSync while it is being removed (a signal may come meanwhile).
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    if (this.#created === dir) this.#created = undefined;
  }

  /**
   * Removes the temporary directory now, synchronously (a signal handler's last act before the
   * process exits: no await would run). Runs being written may be cut short; that is all right,
   * the directory goes with them.
   */
  disposeSync(): void {
    const dir = this.#created;
    this.#created = undefined;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }

  async #create(): Promise<string> {
    const dir = await mkdtemp(join(this.#parent, "bintrie-sort-"));
    this.#created = dir;
    return dir;
  }
}
