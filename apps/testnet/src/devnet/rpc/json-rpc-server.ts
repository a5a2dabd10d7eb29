import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { assertKnownOptions } from "@bintrie/codec";
import { type WebSocket, WebSocketServer } from "ws";
import { TestnetError } from "../../chain/testnet-error.js";
import { readRequestBody } from "../../io/http-body.js";
import { type HttpAddress, listenAt } from "../../io/http-listen.js";
import type { EthApi } from "./eth-api.js";
import { JsonRpcError, type JsonRpcErrorCode } from "./json-rpc-error.js";
import type { RpcSession } from "./subscriptions.js";

export interface JsonRpcServerOptions {
  /** The largest request body read, in bytes (default 16 MiB); a larger one is answered 413. */
  readonly maxRequestBytes?: number;
}

const DEFAULT_MAX_REQUEST_BYTES = 16 * 1024 * 1024;

const JSON_RPC_SERVER_OPTION_KEYS: readonly (keyof JsonRpcServerOptions)[] = ["maxRequestBytes"];

/** Headers that let a page on any origin call the node (a devnet is for local tooling). */
const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type",
  "Access-Control-Max-Age": "600",
};

/**
 * JSON-RPC 2.0 over HTTP for a devnet: a POST of one request object or a batch (an array,
 * answered in order) gets the result or error objects; notifications (no `id`) get none. Any
 * origin may call it (CORS), so a browser page can use it as its wallet's RPC. Each method runs
 * through the EthApi, whose state operations run one at a time.
 */
export class JsonRpcServer {
  readonly #server: Server;
  /** WebSocket connections (the same URL with ws://): calls, and eth_subscribe's notifications. */
  readonly #sockets: WebSocketServer;
  readonly #api: EthApi;
  readonly #maxRequestBytes: number;
  #closing = false;
  #answered = 0;

  constructor(api: EthApi, options: JsonRpcServerOptions = {}) {
    assertKnownOptions(options, JSON_RPC_SERVER_OPTION_KEYS, "JsonRpcServer", TestnetError);
    this.#api = api;
    this.#maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
    // A message over the request limit closes its connection (1009), as a body over it is 413.
    this.#sockets = new WebSocketServer({ noServer: true, maxPayload: this.#maxRequestBytes });
    this.#server = createServer((request, response) => {
      this.#handle(request, response).catch(() => response.destroy());
    });
    this.#server.on("upgrade", (request, socket, head) => {
      if (this.#closing) {
        socket.destroy();
        return;
      }
      this.#sockets.handleUpgrade(request, socket, head, (ws) => this.#serveSocket(ws));
    });
  }

  /**
   * One WebSocket connection: each text message is a request or batch, answered on the socket
   * in arrival order; its subscriptions notify on it and end with it.
   */
  #serveSocket(ws: WebSocket): void {
    const session: RpcSession = {
      notify: (subscription, result) => {
        if (ws.readyState !== ws.OPEN) return;
        ws.send(
          JSON.stringify({
            jsonrpc: "2.0",
            method: "eth_subscription",
            params: { subscription, result },
          }),
        );
      },
    };
    // Answers go out in the order the requests came in.
    let previous: Promise<void> = Promise.resolve();
    ws.on("message", (data, isBinary) => {
      const text = isBinary ? undefined : data.toString();
      previous = previous
        .then(async () => {
          const json =
            text === undefined
              ? failure("INVALID_REQUEST", "binary messages are not JSON-RPC")
              : await this.answer(text, session);
          if (json !== undefined && ws.readyState === ws.OPEN) ws.send(json);
        })
        .catch(() => ws.terminate());
    });
    ws.on("close", () => this.#api.endSession(session));
    ws.on("error", () => ws.terminate());
  }

  /** Calls answered (each request of a batch counts), errors included. */
  get answered(): number {
    return this.#answered;
  }

  /** Starts listening (a TCP host defaults to 127.0.0.1) and resolves to the server's URL. */
  async listen(address: HttpAddress): Promise<string> {
    if (this.#server.listening || this.#closing) {
      throw new TestnetError("INVALID_OPTION", "this JSON-RPC server has listened already");
    }
    return listenAt(this.#server, address);
  }

  /** Stops accepting, answers the requests in progress (each then ends its connection), resolves. */
  async close(): Promise<void> {
    this.#closing = true;
    // WebSockets are long-lived: they end here, "going away" (1001).
    for (const ws of this.#sockets.clients) ws.close(1001, "server closing");
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeIdleConnections();
    });
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method === "OPTIONS") {
      response.writeHead(204, CORS);
      response.end();
      return;
    }
    let status = 200;
    let json: string | undefined;
    if (request.method !== "POST") {
      status = 405;
      response.setHeader("Allow", "POST, OPTIONS");
      json = failure("INVALID_REQUEST", `${request.method}: only POST is served`);
    } else {
      let body: Awaited<ReturnType<typeof readRequestBody>>;
      try {
        body = await readRequestBody(request, this.#maxRequestBytes);
      } catch {
        // The client went away part-way: there is no one to answer.
        response.destroy();
        return;
      }
      if (typeof body === "string") {
        json = await this.answer(body);
      } else {
        status = 413;
        json = failure("INVALID_REQUEST", `request over ${body.limit} bytes`);
      }
    }
    if (response.destroyed) return;
    if (this.#closing) response.setHeader("Connection", "close");
    if (json === undefined) {
      // Only notifications: nothing to answer.
      response.writeHead(204, CORS);
      response.end();
      return;
    }
    response.writeHead(status, {
      ...CORS,
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(json),
    });
    response.end(json);
  }

  /**
   * The answer to one HTTP body (the server's work without HTTP): the JSON of the response
   * object, of the batch's responses, or undefined when nothing is to be answered.
   */
  async answer(text: string, session?: RpcSession): Promise<string | undefined> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (cause) {
      return failure("PARSE_ERROR", `not JSON: ${(cause as Error).message}`);
    }
    if (!Array.isArray(parsed)) {
      const one = await this.#call(parsed, session);
      return one === undefined ? undefined : JSON.stringify(one);
    }
    if (parsed.length === 0) {
      return failure("INVALID_REQUEST", "empty batch");
    }
    const out: unknown[] = [];
    // In order, one after the other: a batch's calls see each other's blocks.
    for (const item of parsed) {
      const one = await this.#call(item, session);
      if (one !== undefined) out.push(one);
    }
    return out.length === 0 ? undefined : JSON.stringify(out);
  }

  async #call(item: unknown, session: RpcSession | undefined): Promise<unknown> {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      return errorObject(null, new JsonRpcError("INVALID_REQUEST", "a request is a JSON object"));
    }
    const { jsonrpc, method, params, id } = item as Record<string, unknown>;
    const validId =
      id === undefined || id === null || typeof id === "string" || typeof id === "number";
    if (jsonrpc !== "2.0" || typeof method !== "string" || !validId) {
      const why =
        jsonrpc !== "2.0"
          ? '"jsonrpc" must be "2.0"'
          : typeof method !== "string"
            ? '"method" must be a string'
            : '"id" must be a string, a number or null';
      return errorObject(validId ? (id ?? null) : null, new JsonRpcError("INVALID_REQUEST", why));
    }
    this.#answered++;
    try {
      const result = await this.#api.answer(method, params, session);
      return id === undefined ? undefined : { jsonrpc: "2.0", id, result };
    } catch (error) {
      const fault =
        error instanceof JsonRpcError
          ? error
          : new JsonRpcError(
              "INTERNAL_ERROR",
              error instanceof Error ? error.message : String(error),
            );
      return id === undefined ? undefined : errorObject(id, fault);
    }
  }
}

/** The JSON of an error response to a request whose id is unknown (id null). */
function failure(code: JsonRpcErrorCode, message: string): string {
  return JSON.stringify(errorObject(null, new JsonRpcError(code, message)));
}

function errorObject(id: unknown, error: JsonRpcError): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: error.rpcCode,
      message: error.message,
      ...(error.data === undefined ? {} : { data: error.data }),
    },
  };
}
