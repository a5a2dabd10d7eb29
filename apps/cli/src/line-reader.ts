const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Calls `onLine(text, lineNumber)` for every line of `stream` (1-based numbers, "\n" or "\r\n"
 * endings, a last line without a newline included). Splits on bytes before decoding, so a
 * UTF-8 character cut between two chunks is decoded whole. Returns the number of lines.
 */
export async function forEachLine(
  stream: NodeJS.ReadableStream,
  onLine: (text: string, lineNumber: number) => void,
): Promise<number> {
  let lineNumber = 0;
  let carry: Buffer | undefined;
  for await (const piece of stream) {
    let chunk = typeof piece === "string" ? Buffer.from(piece) : (piece as Buffer);
    if (carry !== undefined) {
      chunk = Buffer.concat([carry, chunk]);
      carry = undefined;
    }
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end < 0) break;
      lineNumber++;
      onLine(decodeLine(chunk, start, end), lineNumber);
      start = end + 1;
    }
    if (start < chunk.length) carry = chunk.subarray(start);
  }
  if (carry !== undefined && carry.length > 0) {
    lineNumber++;
    onLine(decodeLine(carry, 0, carry.length), lineNumber);
  }
  return lineNumber;
}

function decodeLine(chunk: Buffer, start: number, end: number): string {
  const stop = end > start && chunk[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
  return chunk.toString("utf8", start, stop);
}
