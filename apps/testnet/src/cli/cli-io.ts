/** A stream the CLI writes to; `isTTY` turns the progress bar's redraws on. */
export interface CliOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** Where the CLI reads and writes (the process's streams, or a test's captures). */
export interface CliIO {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** Read by `t8n --input.* stdin`; without it, such an input is an error. */
  readonly stdin?: AsyncIterable<string | Uint8Array>;
}

/** Everything on `stdin`, as UTF-8 text. */
export async function readAllText(stdin: AsyncIterable<string | Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stdin) {
    text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}
