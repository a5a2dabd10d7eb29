import { fstatSync } from "node:fs";
import { type FileHandle, open, readFile, stat } from "node:fs/promises";
import { text as streamText } from "node:stream/consumers";
import { CliError } from "./cli-error.js";
import { stripBom } from "./input-rules.js";

/**
 * An input and the name errors use for it ("stdin" or the file path): a stream (stdin, or a
 * FILE that is not a regular file: a FIFO, /dev/stdin, a process substitution, a character
 * device or a socket, read front to back with no size known), or a regular file read in place
 * into one reused buffer (lineChunks), with its size for progress totals.
 */
export type InputSource =
  | { readonly name: string; readonly stream: NodeJS.ReadableStream; readonly bytes?: number }
  | { readonly name: string; readonly file: string; readonly bytes: number };

/** How messages name an input FILE: `stdin` for `-`. */
export function inputName(file: string): string {
  return file === "-" ? "stdin" : file;
}

/** Opens FILE, or stdin for `-` / no file, failing with a clear usage error. */
export async function openInput(file: string | undefined): Promise<InputSource> {
  if (file === undefined && process.stdin.isTTY === true) {
    // Nothing piped in and no FILE: waiting on the keyboard is never what was meant.
    throw new CliError(
      "BAD_USAGE",
      "no input: give FILE, or pipe JSON lines into stdin (or use -)",
    );
  }
  if (file === undefined || file === "-") {
    return { name: inputName("-"), stream: process.stdin };
  }
  const info = await inputInfo(file);
  if (info.regular) return { name: file, file, bytes: info.size };
  // A pipe cannot be read at a position (ESPIPE) and has no size: read it as a stream. This
  // process's own stdin by another name (/dev/stdin, /dev/fd/0) is read as stdin: a socket
  // cannot be opened again by its path.
  if (isStdin(info)) return { name: file, stream: process.stdin };
  let handle: FileHandle;
  try {
    // Opened now (a FIFO waits for its writer here), so an error comes before the store is.
    handle = await open(file, "r");
  } catch (error) {
    throw unreadable(file, error);
  }
  const stream = handle.createReadStream({ highWaterMark: 1 << 20 });
  // Read errors reach the reader (lineChunks names the input); none may go unhandled before.
  stream.on("error", () => {});
  return { name: file, stream };
}

/** Whether `info` is the file of this process's stdin (fd 0). */
function isStdin(info: { readonly dev: number; readonly ino: number }): boolean {
  try {
    const stdin = fstatSync(0);
    return stdin.dev === info.dev && stdin.ino === info.ino;
  } catch {
    return false;
  }
}

/** Throws a BAD_INPUT CliError unless `file` exists and is not a directory; returns its size. */
export async function assertReadableFile(file: string): Promise<number> {
  return (await inputInfo(file)).size;
}

interface InputInfo {
  readonly regular: boolean;
  readonly size: number;
  readonly dev: number;
  readonly ino: number;
}

/**
 * Whether `file` is a regular file (read at positions, its size known) or another readable
 * kind (FIFO, character device, socket: read front to back), and its size (0 for the latter).
 * A missing file or a directory is a BAD_INPUT CliError naming it.
 */
async function inputInfo(file: string): Promise<InputInfo> {
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw new CliError("BAD_INPUT", `${file} is a directory, not a file`);
    const regular = info.isFile();
    return { regular, size: regular ? info.size : 0, dev: info.dev, ino: info.ino };
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw unreadable(file, error);
  }
}

/** The BAD_INPUT error of a file that cannot be opened or read. */
export function unreadable(file: string, error: unknown): CliError {
  if (error instanceof CliError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === "ENOENT" ? "no such file" : (error as Error).message;
  return new CliError("BAD_INPUT", `cannot read ${file}: ${why}`);
}

/**
 * All of FILE as text (stdin for `-`), its byte order mark dropped: for inputs read whole (a
 * genesis file, a proof document). A missing FILE or a directory is a BAD_INPUT CliError naming it.
 */
export async function readInputText(file: string): Promise<string> {
  if (file !== "-") await assertReadableFile(file);
  return stripBom(file === "-" ? await streamText(process.stdin) : await readFile(file, "utf8"));
}
