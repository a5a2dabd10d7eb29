import { parseEntryLine } from "./entry-line.js";
import { EntrySpool } from "./entry-spool.js";
import { openInput } from "./input-source.js";
import { forEachLine } from "./line-reader.js";
import { Progress } from "./progress.js";

/**
 * The validation pass of `build`: reads every JSON line of FILE (or stdin), checks it, and keeps
 * the entries in a spool. Throws a BAD_INPUT CliError at the first bad line, before anything is
 * written to the store.
 */
export async function readEntries(file: string | undefined): Promise<EntrySpool> {
  const input = await openInput(file);
  const spool = new EntrySpool();
  const progress = new Progress("reading", undefined);
  try {
    await forEachLine(input.stream, (text, lineNumber) => {
      if (parseEntryLine(text, lineNumber, input.name, spool.slotBytes, spool.slotOffset)) {
        spool.commit();
        if ((spool.count & 0xffff) === 0) progress.update(spool.count, " entries");
      }
    });
  } catch (error) {
    spool.dispose();
    if (input.stream !== process.stdin) (input.stream as NodeJS.ReadStream).destroy?.();
    throw error;
  } finally {
    progress.done();
  }
  return spool;
}
