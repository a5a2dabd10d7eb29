import { stat } from "node:fs/promises";
import { CliError } from "./cli-error.js";

/**
 * An input and the name errors use for it ("stdin" or the file path): a stream, or a file read
 * in place into one reused buffer (lineChunks), with its size for progress totals.
 */
export type InputSource =
  | { readonly name: string; readonly stream: NodeJS.ReadableStream; readonly bytes?: number }
  | { readonly name: string; readonly file: string; readonly bytes: number };

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
    return { name: "stdin", stream: process.stdin };
  }
  const bytes = await assertReadableFile(file);
  return { name: file, file, bytes };
}

/** Throws a BAD_INPUT CliError unless `file` is an existing regular file; returns its size. */
export async function assertReadableFile(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw new CliError("BAD_INPUT", `${file} is a directory, not a file`);
    return info.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw unreadable(file, error);
  }
}

/** The BAD_INPUT error of a file that cannot be opened or read. */
export function unreadable(file: string, error: unknown): CliError {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === "ENOENT" ? "no such file" : (error as Error).message;
  return new CliError("BAD_INPUT", `cannot read ${file}: ${why}`);
}
