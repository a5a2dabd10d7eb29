import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { request as httpRequest } from "node:http";
import { connect, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestnetError } from "../src/chain/testnet-error.js";
import { parseT8nRequest } from "../src/t8n/t8n-request.js";
import { answerT8nRequest, T8nServer } from "../src/t8n/t8n-server.js";
import { MAIN, runBuilt } from "./cli-process.js";
import {
  expectGethUbtT8n,
  readUbtT8n,
  UBT_T8N_SCENARIOS,
  ubtT8nAllocFile,
} from "./geth-ubt-t8n.js";
import { readDataJson } from "./test-data.js";

/**
 * `t8n-server`: transitions over HTTP, in the request shape execution-spec-tests' t8n server
 * client posts. The answers are checked against geth's own `evm t8n` outputs (the vendored
 * test/data/geth-ubt/t8n results and allocs, test/data/geth-traces trace files), one request at
 * a time and all at once.
 */
const FORKS = ["Verkle", "Binary", "Osaka"] as const;
const dir = mkdtempSync(join(tmpdir(), "bintrie-t8n-server-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Case {
  readonly name: string;
  readonly scenario: string;
  readonly fork: string;
  readonly body: string;
}

/** Every scenario under the forks geth's run covered, as a request. */
const CASES: Case[] = FORKS.flatMap((fork) =>
  UBT_T8N_SCENARIOS.map((scenario) => ({
    name: `${scenario} under ${fork}`,
    scenario,
    fork,
    body: JSON.stringify({
      state: { fork, chainid: 1, reward: 0 },
      input: {
        alloc: readUbtT8n(scenario, ubtT8nAllocFile(fork)),
        env: readUbtT8n(scenario, "env.json"),
        txs: readUbtT8n(scenario, "txs.json"),
      },
    }),
  })),
);

/** A 200 answer with geth's result and alloc for the case, and a body of hex. */
function expectGethAnswer(c: Case, answer: { status: number; json: string }): void {
  expect(answer.status, answer.json.slice(0, 300)).toBe(200);
  const got = JSON.parse(answer.json) as { alloc: unknown; result: unknown; body: string };
  expectGethUbtT8n(c.scenario, c.fork, got);
  expect(got.body).toMatch(/^0x[0-9a-f]*$/);
}

interface Posted {
  readonly status: number;
  readonly json: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** One HTTP request to `url` (http://host:port/…) or over the socket `socketPath`. */
function post(
  target: { url: string } | { socketPath: string; path?: string },
  body: string | undefined,
  method = "POST",
): Promise<Posted> {
  return new Promise((resolve, reject) => {
    const options =
      "url" in target
        ? { method }
        : { method, socketPath: target.socketPath, path: target.path ?? "/" };
    const req = "url" in target ? httpRequest(target.url, options) : httpRequest(options as never);
    req.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          json: Buffer.concat(chunks).toString("utf8"),
          headers: response.headers,
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("t8n-server answers as geth's evm t8n", () => {
  const server = new T8nServer();
  let url = "";
  beforeAll(async () => {
    url = await server.listen({ port: 0 });
  });
  afterAll(() => server.close());

  it("listens on a port the OS picked, and names it", () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9][0-9]*\/$/);
  });

  it(`gives geth's result and alloc for ${CASES.length} transitions, one request at a time`, async () => {
    expect(CASES.length).toBe(36);
    for (const c of CASES) expectGethAnswer(c, await post({ url }, c.body));
  });

  it("gives each of them again when all are in flight at once (each twice, the second pass reversed)", async () => {
    const order = [...CASES, ...[...CASES].reverse()];
    const answers = await Promise.all(order.map((c) => post({ url }, c.body)));
    for (const [i, c] of order.entries()) expectGethAnswer(c, answers[i]!);
  });

  it("writes geth's trace files under output-basedir with trace: true", async () => {
    const cases = readDataJson<
      {
        name: string;
        fork: string;
        flags: string[];
        alloc: unknown;
        env: unknown;
        txs: unknown;
        traces: Record<string, string>;
      }[]
    >("geth-traces/cases.json").filter((c) => c.flags.length === 1 && c.flags[0] === "--trace");
    expect(cases.length).toBeGreaterThanOrEqual(60);
    const answers = await Promise.all(
      cases.map((c, i) =>
        post(
          { url },
          JSON.stringify({
            state: { fork: c.fork, chainid: 1, reward: 0 },
            input: { alloc: c.alloc, env: c.env, txs: c.txs },
            trace: true,
            "output-basedir": join(dir, `trace-${i}`, "out"),
          }),
        ),
      ),
    );
    cases.forEach((c, i) => {
      expect(answers[i]!.status, `${c.name}: ${answers[i]!.json.slice(0, 200)}`).toBe(200);
      const out = join(dir, `trace-${i}`, "out");
      const files = Object.fromEntries(
        readdirSync(out)
          .sort()
          .map((name) => [name, readFileSync(join(out, name), "utf8")]),
      );
      expect(files, c.name).toEqual(c.traces);
    });
  });

  it("answers faults with t8n's code, message and exit code, and goes on serving", async () => {
    const good = CASES[0]!;
    const goodRequest = JSON.parse(good.body) as { state: object; input: object };
    const faults: [string, number, string, RegExp, number | undefined][] = [
      ["{", 400, "INVALID_INPUT", /^request: not JSON/, 10],
      ["[]", 400, "INVALID_INPUT", /^request: expected an object/, 10],
      [
        JSON.stringify({ ...goodRequest, extra: 1 }),
        400,
        "INVALID_INPUT",
        /^request\.extra: not a field of a t8n request/,
        10,
      ],
      [
        JSON.stringify({ ...goodRequest, state: { fork: "Nowhere", chainid: 1, reward: 0 } }),
        400,
        "UNKNOWN_NETWORK",
        /Nowhere/,
        3,
      ],
      [
        JSON.stringify({ ...goodRequest, input: { alloc: {}, txs: [] } }),
        400,
        "INVALID_INPUT",
        /^request\.input: the input object has no "env"/,
        10,
      ],
      [
        JSON.stringify({ ...goodRequest, trace: true }),
        400,
        "INVALID_INPUT",
        /^request\.output-basedir: "trace": true needs/,
        10,
      ],
    ];
    for (const [body, status, code, message, exitCode] of faults) {
      const answer = await post({ url }, body);
      expect(answer.status, body.slice(0, 80)).toBe(status);
      const error = (JSON.parse(answer.json) as { error: Record<string, unknown> }).error;
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
      expect(error.exitCode).toBe(exitCode);
    }
    const get = await post({ url }, undefined, "GET");
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
    const server2 = new T8nServer();
    await server2.listen({ port: 0 });
    await expect(server2.listen({ port: 0 })).rejects.toThrow(
      "this t8n server has listened already",
    );
    await server2.close();
    await expect(server2.listen({ port: 0 })).rejects.toThrow(
      "this t8n server has listened already",
    );
    // A request target that is no URL at all ("http://[" as an absolute form).
    const raw = await new Promise<string>((resolve) => {
      let text = "";
      const socket = connect(Number(new URL(url).port), "127.0.0.1", () =>
        socket.write(
          "POST http://[ HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
        ),
      );
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      socket.on("close", () => resolve(text));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(raw).toContain("this server takes no URL arguments");
    const query = await post({ url: `${url}?arg=--state-test` }, good.body);
    expect(query.status).toBe(400);
    expect(query.json).toContain("?arg=--state-test: this server takes no URL arguments");
    // An output directory it cannot create is the server's side: 500, t8n's I/O exit code.
    writeFileSync(join(dir, "a-file"), "");
    const unwritable = await post(
      { url },
      JSON.stringify({ ...goodRequest, trace: true, "output-basedir": join(dir, "a-file", "x") }),
    );
    expect(unwritable.status).toBe(500);
    expect(JSON.parse(unwritable.json).error).toMatchObject({
      code: "INVALID_OUTPUT",
      exitCode: 11,
    });
    expectGethAnswer(good, await post({ url }, good.body));
  });

  it("refuses a request over its size limit with 413 and a client that leaves part-way, and goes on", async () => {
    const small = new T8nServer({ maxRequestBytes: 1024 });
    const smallUrl = await small.listen({ port: 0 });
    try {
      const big = await post({ url: smallUrl }, CASES[0]!.body);
      expect(big.status).toBe(413);
      expect(JSON.parse(big.json).error.code).toBe("REQUEST_TOO_LARGE");
      // A client that sends half a body and hangs up.
      const { port } = new URL(smallUrl);
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), "127.0.0.1", () => {
          socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{"state":');
          setTimeout(() => socket.destroy(), 20);
        });
        socket.on("close", () => resolve());
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(small.refused).toBe(2);
      const tiny = await post({ url: smallUrl }, "{}");
      expect(tiny.status).toBe(400);
      expect(small.served).toBe(0);
      expect(small.refused).toBe(3);
    } finally {
      await small.close();
    }
  });
});

describe("t8n-server closing", () => {
  it("answers a request in progress, then closes (a keep-alive client does not hold it open)", async () => {
    const server = new T8nServer();
    const url = new URL(await server.listen({ port: 0 }));
    const c = CASES[4]!;
    const half = c.body.length >> 1;
    const raw = await new Promise<string>((resolve, reject) => {
      let text = "";
      const socket = connect(Number(url.port), "127.0.0.1", () => {
        socket.write(
          `POST / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nContent-Length: ${Buffer.byteLength(c.body)}\r\n\r\n${c.body.slice(0, half)}`,
        );
        setTimeout(() => {
          closed = server.close();
          setTimeout(() => socket.write(c.body.slice(half)), 20);
        }, 20);
      });
      let closed: Promise<void> | undefined;
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      socket.on("error", reject);
      socket.on("close", () => {
        closed!.then(() => resolve(text), reject);
      });
    });
    const head = raw.slice(0, raw.indexOf("\r\n\r\n")).split("\r\n");
    expect(head[0]).toBe("HTTP/1.1 200 OK");
    expect(head).toContain("Connection: close");
    expectGethAnswer(c, { status: 200, json: raw.slice(raw.indexOf("\r\n\r\n") + 4) });
    expect(server.served).toBe(1);
    // Closed: a new connection is refused.
    await expect(post({ url: url.href }, c.body)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe("t8n-server on a Unix domain socket", () => {
  it("takes the path, names it as http+unix://, and removes it when closed", async () => {
    const path = join(dir, "t8n.sock");
    const server = new T8nServer();
    const url = await server.listen({ path });
    expect(url).toBe(`http+unix://${path.replaceAll("/", "%2F")}/`);
    expectGethAnswer(CASES[1]!, await post({ socketPath: path }, CASES[1]!.body));
    // A second server is refused the live socket.
    await expect(new T8nServer().listen({ path })).rejects.toThrow(
      /--uds .*t8n\.sock: a server is listening there already/,
    );
    await server.close();
    expect(existsSync(path)).toBe(false);
  });

  it("replaces a stale socket a dead server left, and refuses a path that is no socket", async () => {
    const path = join(dir, "stale.sock");
    // A socket file with nothing accepting on it: a process that listened and was killed.
    const child = spawn(process.execPath, [
      "-e",
      `require("net").createServer().listen(${JSON.stringify(path)}, () => console.log("up"))`,
    ]);
    await new Promise((resolve) => child.stdout.once("data", resolve));
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(statSync(path).isSocket()).toBe(true);
    const server = new T8nServer();
    await server.listen({ path });
    expectGethAnswer(CASES[2]!, await post({ socketPath: path }, CASES[2]!.body));
    await server.close();

    const file = join(dir, "not-a-socket");
    writeFileSync(file, "keep me");
    const refused = await new T8nServer().listen({ path: file }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TestnetError);
    expect((refused as TestnetError).code).toBe("INVALID_OPTION");
    expect((refused as TestnetError).message).toContain("exists and is not a socket");
    expect(readFileSync(file, "utf8")).toBe("keep me");
  });

  it("names a port it cannot take", async () => {
    const holder = createNetServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      await expect(new T8nServer().listen({ port })).rejects.toThrow(
        `--port ${port}: cannot listen there (EADDRINUSE)`,
      );
    } finally {
      holder.close();
    }
  });
});

describe("a t8n request", () => {
  const base = { state: { fork: "Prague", chainid: 1, reward: 0 }, input: { env: {} } };
  const parse = (patch: object) => parseT8nRequest(JSON.stringify({ ...base, ...patch }));

  it("takes the reward as a JSON integer or as geth's decimal or hex text, within int64", () => {
    expect(parse({ state: { fork: "Prague", reward: -1 } }).reward).toBe(-1n);
    expect(parse({ state: { fork: "Prague", reward: "0x1bc16d674ec80000" } }).reward).toBe(
      2n * 10n ** 18n,
    );
    expect(parse({ state: { fork: "Prague", reward: "5000000000000000000" } }).reward).toBe(
      5n * 10n ** 18n,
    );
    expect(parse({ state: { fork: "Prague" } }).reward).toBe(0n);
    for (const reward of [2 ** 60, 1.5, "0x8000000000000000", "ten", null]) {
      expect(() => parse({ state: { fork: "Prague", reward } })).toThrow(
        /^request\.state\.reward: expected an integer number of wei within geth's int64/,
      );
    }
  });

  it("keeps an alloc's bare numbers exact, and refuses one JSON.parse has rounded", () => {
    const alloc = { "0x00000000000000000000000000000000000000aa": { balance: 1000, nonce: 7 } };
    const parsed = parse({ input: { env: {}, alloc } });
    expect(parsed.input.alloc).toEqual({
      "0x00000000000000000000000000000000000000aa": { balance: "1000", nonce: "7" },
    });
    const text = JSON.stringify(base).replace(
      '"input":{',
      '"input":{"alloc":{"0x00000000000000000000000000000000000000aa":{"balance":1000000000000000000001}},',
    );
    expect(() => parseT8nRequest(text)).toThrow(
      "request.input.alloc.0x00000000000000000000000000000000000000aa.balance: a bare JSON number at or past 2^53 has lost digits",
    );
  });

  it("accepts the blob schedule fields execution-spec-tests may send, and refuses unknown ones", () => {
    expect(
      parse({
        state: { fork: "Cancun", chainid: 1, reward: 0, blobSchedule: { Cancun: {} } },
        input: { env: {}, blobParams: {} },
      }).fork,
    ).toBe("Cancun");
    expect(() => parse({ state: { fork: "Cancun", chainId: 1 } })).toThrow(
      "request.state.chainId: not a field of a t8n request (fork, chainid, reward, blobSchedule)",
    );
    expect(() => parse({ state: { fork: "" } })).toThrow(
      "request.state.fork: expected a fork name",
    );
    expect(() => parse({ state: { fork: "Cancun", chainid: -1 } })).toThrow(
      "request.state.chainid: expected an integer >= 0",
    );
    expect(() => parse({ input: { env: {}, txs: {} } })).toThrow(
      "request.input.txs: expected an array",
    );
  });

  it("is answered without HTTP by answerT8nRequest", async () => {
    expectGethAnswer(CASES[3]!, await answerT8nRequest(CASES[3]!.body));
  });
});

describe("bintrie-testnet t8n-server (the built bin)", () => {
  let child: ChildProcess | undefined;
  afterAll(() => child?.kill("SIGKILL"));

  it("prints where it listens, serves, and on SIGTERM ends with 0, its socket gone", async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`pnpm build\` first`);
    const sockets = join(dir, "bin");
    mkdirSync(sockets);
    const path = join(sockets, "t8n.sock");
    child = spawn(process.execPath, [MAIN, "t8n-server", "--uds", path], {
      env: { ...process.env, BINTRIE_DEBUG: "" },
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const line = await new Promise<string>((resolve) => {
      let out = "";
      child!.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(out);
      });
    });
    expect(line).toBe(`listening http+unix://${path.replaceAll("/", "%2F")}/\n`);
    for (const c of CASES.slice(0, 4))
      expectGethAnswer(c, await post({ socketPath: path }, c.body));
    expect((await post({ socketPath: path }, "nope")).status).toBe(400);
    const exited = new Promise<number | null>((resolve) => child!.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr).toBe("t8n-server: 4 transitions served, 1 requests refused\n");
    expect(existsSync(path)).toBe(false);
  });

  it("refuses --uds with --port as bad usage", () => {
    const ran = runBuilt(["t8n-server", "--uds", "x.sock", "--port", "1"]);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toMatch(/--uds <PATH>.*cannot be used with option '--port <N>'/);
  });
});
