import type { IncomingMessage } from "node:http";

/**
 * A request body as text, or the limit it passed (the rest is read and dropped, so an answer
 * can still be sent). Rejects where the client goes away part-way.
 */
export async function readRequestBody(
  request: IncomingMessage,
  limit: number,
): Promise<string | { readonly limit: number }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of request) {
    bytes += (chunk as Buffer).length;
    if (bytes <= limit) chunks.push(chunk as Buffer);
    else chunks.length = 0;
  }
  return bytes > limit ? { limit } : Buffer.concat(chunks).toString("utf8");
}
