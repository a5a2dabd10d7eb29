import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { CliError } from "./cli-error.js";

/** An input stream and the name errors use for it ("stdin" or the file path). */
export interface InputSource {
  readonly name: string;
  readonly stream: NodeJS.ReadableStream;
  /** Size in bytes, for a file (progress totals). */
  readonly bytes?: number;
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
    return { name: "stdin", stream: process.stdin };
  }
  const bytes = await assertReadableFile(file);
  return { name: file, stream: createReadStream(file, { highWaterMark: 1 << 20 }), bytes };
}

/** Throws a BAD_INPUT CliError unless `file` is an existing regular file; returns its size. */
export async function assertReadableFile(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw new CliError("BAD_INPUT", `${file} is a directory, not a file`);
    return info.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new CliError("BAD_INPUT", `cannot read ${file}: ${why}`);
  }
}
