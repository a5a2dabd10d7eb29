import { lstat, unlink } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect } from "node:net";
import type { KeyScheme } from "@bintrie/core";
import { TestnetError } from "../chain/testnet-error.js";
import { readRequestBody } from "../io/http-body.js";
import { type HttpAddress, listenAt } from "../io/http-listen.js";
import { prepareOutputDirectory } from "../io/output-files.js";
import { t8nExitCodeOf } from "./t8n-exit-codes.js";
import { parseT8nRequest } from "./t8n-request.js";
import { TraceFiles } from "./trace-files.js";
import { transition } from "./transition.js";

/** Where the server listens: a Unix domain socket, or a TCP port (0: one the OS picks). */
export type T8nServerAddress = HttpAddress;

export interface T8nServerOptions {
  /** The key scheme of every transition's binary state (default: sha256-be, geth master's). */
  readonly scheme?: KeyScheme;
  /** The largest request body read, in bytes (default 256 MiB); a larger one is answered 413. */
  readonly maxRequestBytes?: number;
}

/** What a transition request was answered with. */
export interface T8nAnswer {
  readonly status: number;
  /** JSON: `{"alloc", "result", "body"}`, or `{"error": {"code", "message", "exitCode"}}`. */
  readonly json: string;
}

const DEFAULT_MAX_REQUEST_BYTES = 256 * 1024 * 1024;

/**
 * `t8n` as a long-running HTTP server, for a test filler that runs thousands of transitions: a
 * POST of one JSON request (execution-spec-tests' t8n server shape, see parseT8nRequest) is
 * answered with `{"alloc", "result", "body"}`, what `t8n --output.alloc stdout --output.result
 * stdout --output.body stdout` prints, without a process start per transition. Requests are
 * independent (each builds its own state) and may overlap; a fault is answered 400 (an input
 * the transition refuses) or 500 (anything else) with the code and message `t8n` would print
 * and the exit code it would end with, and the server goes on.
 */
export class T8nServer {
  readonly #server: Server;
  readonly #options: T8nServerOptions;
  #socketPath: string | undefined;
  #closing = false;
  #served = 0;
  #refused = 0;

  constructor(options: T8nServerOptions = {}) {
    this.#options = options;
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch(() => response.destroy());
    });
  }

  /** Transitions answered 200. */
  get served(): number {
    return this.#served;
  }

  /** Requests not answered 200: answered with an error status, or left part-way by the client. */
  get refused(): number {
    return this.#refused;
  }

  /**
   * Starts listening and resolves to the server's URL: `http://host:port/`, or for a socket
   * `http+unix://<path, its slashes as %2F>/` (the form execution-spec-tests' client takes). A
   * socket path holding a stale socket (nothing accepts on it) is replaced; one a live server
   * holds, or any other file, is refused (INVALID_OPTION).
   */
  async listen(address: T8nServerAddress): Promise<string> {
    if (this.#server.listening || this.#closing) {
      throw new TestnetError("INVALID_OPTION", "this t8n server has listened already");
    }
    if ("path" in address) await clearStaleSocket(address.path);
    const url = await listenAt(this.#server, address);
    if ("path" in address) this.#socketPath = address.path;
    return url;
  }

  /**
   * Stops accepting, lets the requests in progress finish and be answered (each answer then
   * ends its connection), then resolves (the socket file, if any, is gone by then).
   */
  async close(): Promise<void> {
    this.#closing = true;
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeIdleConnections();
    });
    if (this.#socketPath !== undefined) await unlink(this.#socketPath).catch(() => {});
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let answer: T8nAnswer;
    const query = queryOf(request.url);
    if (request.method !== "POST") {
      response.setHeader("Allow", "POST");
      answer = errorAnswer(405, "METHOD_NOT_ALLOWED", `${request.method}: only POST is served`);
    } else if (query !== "") {
      answer = errorAnswer(
        400,
        "INVALID_INPUT",
        `${query}: this server takes no URL arguments (it runs geth's evm t8n transition, which has no EELS flags such as --state-test)`,
      );
    } else {
      let body: Awaited<ReturnType<typeof readRequestBody>>;
      try {
        body = await readRequestBody(
          request,
          this.#options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
        );
      } catch {
        // The client went away part-way: there is no one to answer.
        this.#refused++;
        response.destroy();
        return;
      }
      answer =
        typeof body === "string"
          ? await answerT8nRequest(body, this.#options)
          : errorAnswer(
              413,
              "REQUEST_TOO_LARGE",
              `request: over ${body.limit} bytes (the server's maxRequestBytes)`,
            );
    }
    if (answer.status === 200) this.#served++;
    else this.#refused++;
    if (response.destroyed) return;
    // Closing: the connection ends with this answer (a keep-alive client would hold it open).
    if (this.#closing) response.setHeader("Connection", "close");
    response.writeHead(answer.status, {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(answer.json),
    });
    response.end(answer.json);
  }
}

/**
 * One request's answer (the server's work, without HTTP): the transition's outputs, or the
 * fault as `{"error": {"code", "message", "exitCode"}}` (400 for a TestnetError about the
 * input, 500 for anything else, an output directory it cannot write included).
 */
export async function answerT8nRequest(
  text: string,
  options: T8nServerOptions = {},
): Promise<T8nAnswer> {
  try {
    const request = parseT8nRequest(text);
    let traceFiles: TraceFiles | undefined;
    if (request.traceDir !== undefined) {
      await prepareOutputDirectory(request.traceDir, "request.output-basedir");
      traceFiles = new TraceFiles(request.traceDir);
    }
    const output = await transition({
      ...request.input,
      fork: request.fork,
      chainId: request.chainId,
      reward: request.reward,
      scheme: options.scheme,
      sources: { alloc: "request.input.alloc", env: "request.input.env", txs: "request.input.txs" },
      ...(traceFiles === undefined ? {} : { trace: { sink: traceFiles, options: {} } }),
    });
    return {
      status: 200,
      json: JSON.stringify({ alloc: output.alloc, result: output.result, body: output.body }),
    };
  } catch (error) {
    const exitCode = t8nExitCodeOf(error);
    if (error instanceof TestnetError) {
      const status = error.code === "INVALID_OUTPUT" ? 500 : 400;
      return errorAnswer(status, error.code, error.message, exitCode);
    }
    const message = error instanceof Error ? error.message : String(error);
    return errorAnswer(500, "INTERNAL", message, exitCode);
  }
}

/** The query part of a request's target (`?…`), or "" (the whole target where it is no URL). */
function queryOf(target: string | undefined): string {
  try {
    return new URL(target ?? "/", "http://t8n").search;
  } catch {
    return target ?? "";
  }
}

function errorAnswer(status: number, code: string, message: string, exitCode?: number): T8nAnswer {
  return {
    status,
    json: JSON.stringify({
      error: { code, message, ...(exitCode === undefined ? {} : { exitCode }) },
    }),
  };
}

/**
 * Frees a socket path a server that is gone left behind; refuses a path another server listens
 * on, or that holds anything but a socket.
 */
async function clearStaleSocket(path: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) return;
  if (!info.isSocket()) {
    throw new TestnetError("INVALID_OPTION", `--uds ${path}: exists and is not a socket`);
  }
  const live = await new Promise<boolean>((resolve) => {
    const probe = connect(path);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
  if (live) {
    throw new TestnetError("INVALID_OPTION", `--uds ${path}: a server is listening there already`);
  }
  await unlink(path);
}
