import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Bytes of one spooled entry: 32-byte key ‖ 32-byte value. */
export const ENTRY_SIZE = 64;
/** Entries per page (1 MiB pages). */
const PAGE_ENTRIES = 16384;
const PAGE_BYTES = PAGE_ENTRIES * ENTRY_SIZE;

/** A run of validated entries: `count` records of key ‖ value packed in `bytes`. */
export interface EntryPage {
  readonly bytes: Uint8Array;
  readonly count: number;
}

/**
 * Validated build entries held between the validation pass and the build, so bad input is
 * found before anything is written. Entries stay in memory up to `memoryLimit` bytes; beyond
 * that, full pages go to a temporary file that `dispose()` removes. Also tracks whether the keys
 * strictly increase (input the streaming builder can take as it is).
 */
export class EntrySpool {
  readonly #memoryPages: number;
  #pages: Uint8Array[] = [];
  #current: Uint8Array = new Uint8Array(PAGE_BYTES);
  #inCurrent = 0;
  #count = 0;
  #sorted = true;
  readonly #lastKey = new Uint8Array(32);
  #fileDir: string | undefined;
  #fd: number | undefined;
  #filePages = 0;

  constructor(memoryLimit = 64 * 1024 * 1024) {
    this.#memoryPages = Math.max(1, Math.floor(memoryLimit / PAGE_BYTES));
  }

  /** Entries appended. */
  get count(): number {
    return this.#count;
  }

  /** Whether every key is greater than the one before (no duplicates). */
  get sorted(): boolean {
    return this.#sorted;
  }

  /** The page and byte offset where the next entry is to be decoded. */
  get slotBytes(): Uint8Array {
    return this.#current;
  }

  get slotOffset(): number {
    return this.#inCurrent * ENTRY_SIZE;
  }

  /** Accepts the entry decoded at the slot. */
  commit(): void {
    const page = this.#current;
    const at = this.#inCurrent * ENTRY_SIZE;
    if (this.#sorted && this.#count > 0 && compareKey(page, at, this.#lastKey) <= 0) {
      this.#sorted = false;
    }
    if (this.#sorted) this.#lastKey.set(page.subarray(at, at + 32));
    this.#count++;
    this.#inCurrent++;
    if (this.#inCurrent === PAGE_ENTRIES) {
      this.#pages.push(page);
      this.#current = new Uint8Array(PAGE_BYTES);
      this.#inCurrent = 0;
      if (this.#pages.length >= this.#memoryPages) this.#spill();
    }
  }

  /** Every entry in input order, page by page (pages are new arrays the caller may keep). */
  *pages(): Generator<EntryPage> {
    if (this.#fd !== undefined) {
      for (let p = 0; p < this.#filePages; p++) {
        const bytes = new Uint8Array(PAGE_BYTES);
        let read = 0;
        while (read < PAGE_BYTES) {
          const n = readSync(this.#fd, bytes, read, PAGE_BYTES - read, p * PAGE_BYTES + read);
          if (n === 0) throw new Error("entry spool file is shorter than written");
          read += n;
        }
        yield { bytes, count: PAGE_ENTRIES };
      }
    }
    for (const bytes of this.#pages) yield { bytes, count: PAGE_ENTRIES };
    if (this.#inCurrent > 0) yield { bytes: this.#current, count: this.#inCurrent };
  }

  /** Removes the temporary file, if any. */
  dispose(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    if (this.#fileDir !== undefined) rmSync(this.#fileDir, { recursive: true, force: true });
    this.#fd = undefined;
    this.#fileDir = undefined;
    this.#pages = [];
  }

  #spill(): void {
    if (this.#fd === undefined) {
      this.#fileDir = mkdtempSync(join(tmpdir(), "bintrie-build-"));
      this.#fd = openSync(join(this.#fileDir, "entries.bin"), "w+");
    }
    for (const page of this.#pages) {
      let written = 0;
      while (written < PAGE_BYTES) {
        written += writeSync(
          this.#fd,
          page,
          written,
          PAGE_BYTES - written,
          this.#filePages * PAGE_BYTES + written,
        );
      }
      this.#filePages++;
    }
    this.#pages = [];
  }
}

function compareKey(page: Uint8Array, at: number, key: Uint8Array): number {
  for (let i = 0; i < 32; i++) {
    const d = page[at + i]! - key[i]!;
    if (d !== 0) return d;
  }
  return 0;
}
