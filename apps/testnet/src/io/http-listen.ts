import type { Server } from "node:http";
import { TestnetError } from "../chain/testnet-error.js";

/** Where an HTTP server listens: a Unix domain socket, or a TCP port (0: one the OS picks). */
export type HttpAddress =
  | { readonly path: string }
  | { readonly port: number; readonly host?: string };

/**
 * Starts `server` listening at `address` (a TCP host defaults to 127.0.0.1) and resolves to its
 * URL: `http://host:port/`, or for a socket `http+unix://<path, its slashes as %2F>/`. A place
 * it cannot listen at is INVALID_OPTION naming the flag (`--uds PATH`, `--port N`) and why.
 */
export async function listenAt(server: Server, address: HttpAddress): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    const failed = (cause: NodeJS.ErrnoException) => {
      const where = "path" in address ? `--uds ${address.path}` : `--port ${address.port}`;
      reject(new TestnetError("INVALID_OPTION", `${where}: cannot listen there (${cause.code})`));
    };
    server.once("error", failed);
    const listening = () => {
      server.off("error", failed);
      resolve();
    };
    if ("path" in address) server.listen(address.path, listening);
    else server.listen(address.port, address.host ?? "127.0.0.1", listening);
  });
  if ("path" in address) return `http+unix://${address.path.replaceAll("/", "%2F")}/`;
  const bound = server.address();
  const port = typeof bound === "object" && bound !== null ? bound.port : address.port;
  const host = address.host ?? "127.0.0.1";
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}/`;
}
