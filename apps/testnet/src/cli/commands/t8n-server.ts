import type { KeyScheme } from "@bintrie/core";
import { T8nServer, type T8nServerAddress } from "../../t8n/t8n-server.js";
import type { CliIO } from "../cli-io.js";
import { EXIT_OK, type ExitCode } from "../exit-codes.js";
import { untilSignalled } from "../until-signalled.js";

export interface T8nServerFlags {
  /** A Unix domain socket to listen on (instead of a TCP port). */
  readonly uds?: string;
  /** A TCP port (0: one the OS picks; the default). */
  readonly port?: number;
  readonly host?: string;
  readonly scheme?: string;
}

/**
 * `t8n-server`: serves transitions over HTTP (see T8nServer) until `stop` resolves (by default,
 * once it listens: the first SIGINT or SIGTERM), then answers the requests in progress and exits 0. Once it listens, one
 * line goes to stdout: `listening <url>`; at the end, one to stderr with what it served.
 */
export async function runT8nServer(
  flags: T8nServerFlags,
  io: CliIO,
  stop?: Promise<void>,
): Promise<ExitCode> {
  const server = new T8nServer({ scheme: flags.scheme as KeyScheme | undefined });
  const address: T8nServerAddress =
    flags.uds !== undefined
      ? { path: flags.uds }
      : { port: flags.port ?? 0, ...(flags.host === undefined ? {} : { host: flags.host }) };
  const url = await server.listen(address);
  io.stdout.write(`listening ${url}\n`);
  await (stop ?? untilSignalled());
  await server.close();
  io.stderr.write(
    `t8n-server: ${server.served} transitions served, ${server.refused} requests refused\n`,
  );
  return EXIT_OK;
}
