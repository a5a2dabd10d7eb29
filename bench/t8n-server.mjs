// Dev tool: transitions through `bintrie-testnet t8n-server` against a `t8n` process per
// transition (node bench/t8n-server.mjs [ROUNDS]), and the same transitions in this process
// (`answerT8nRequest`: no HTTP, no process start). Both run geth's 36 vendored UBT t8n
// scenarios (apps/testnet/test/data/geth-ubt/t8n: 12 scenarios under Verkle, Binary and Osaka)
// through the built bin, alternating per round; prints one JSON document with the medians per
// transition and their ratio. With GETH_EVM=<geth's evm>, geth's `evm t8n` a process per
// transition too. Needs `pnpm build`.

import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const rounds = Number(process.argv[2] ?? 3);
const app = fileURLToPath(new URL("../apps/testnet/", import.meta.url));
const bin = join(app, "bin/bintrie-testnet.js");
const root = join(app, "test/data/geth-ubt/t8n");
const scenarios = readdirSync(root).filter((name) => statSync(join(root, name)).isDirectory());
const cases = ["Verkle", "Binary", "Osaka"].flatMap((fork) =>
  scenarios.map((scenario) => ({
    fork,
    dir: join(root, scenario),
    alloc: fork === "Verkle" ? "alloc.json" : "alloc_sys.json",
  })),
);
const read = (c, file) => JSON.parse(readFileSync(join(c.dir, file), "utf8"));
const bodies = cases.map((c) =>
  JSON.stringify({
    state: { fork: c.fork, chainid: 1, reward: 0 },
    input: { alloc: read(c, c.alloc), env: read(c, "env.json"), txs: read(c, "txs.json") },
  }),
);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * The same transitions in this process through `answerT8nRequest` (no HTTP, no process): three
 * passes after three not timed; ms per transition.
 */
async function inProcess() {
  const { answerT8nRequest } = await import(pathToFileURL(join(app, "dist/index.js")).href);
  const pass = async () => {
    const start = performance.now();
    for (const body of bodies) {
      const answer = await answerT8nRequest(body);
      if (answer.status !== 200) throw new Error(answer.json);
    }
    return (performance.now() - start) / bodies.length;
  };
  for (let i = 0; i < 3; i++) await pass();
  return median([await pass(), await pass(), await pass()]);
}

const out = mkdtempSync(join(tmpdir(), "t8n-server-bench-"));

/**
 * One `t8n` process per case, its result to a file; ms per transition. `command`: ours (node and
 * the bin) or geth's `evm` (GETH_EVM).
 */
function processes(command) {
  const start = performance.now();
  for (const c of cases) {
    const ran = spawnSync(command[0], [
      ...command.slice(1),
      "t8n",
      "--state.fork",
      c.fork,
      "--input.alloc",
      join(c.dir, c.alloc),
      "--input.env",
      join(c.dir, "env.json"),
      "--input.txs",
      join(c.dir, "txs.json"),
      "--output.basedir",
      out,
    ]);
    if (ran.status !== 0) throw new Error(`t8n ${c.dir} ${c.fork}: ${ran.stderr}`);
  }
  return (performance.now() - start) / cases.length;
}

function post(socketPath, body) {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: "/", method: "POST" }, (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => {
        if (response.statusCode !== 200) reject(new Error(Buffer.concat(chunks).toString()));
        else resolve();
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * A fresh server: its start (to the ready line), its first request, a first pass over the cases
 * (the code still compiling), then three more passes (what a long fill sees), one request at a
 * time.
 */
async function server() {
  const socketPath = join(out, "t8n.sock");
  const started = performance.now();
  const child = spawn(process.execPath, [bin, "t8n-server", "--uds", socketPath]);
  await new Promise((resolve) => child.stdout.once("data", resolve));
  const ready = performance.now() - started;
  const first = performance.now();
  await post(socketPath, bodies[0]);
  const firstMs = performance.now() - first;
  const pass = async () => {
    const start = performance.now();
    for (const body of bodies) await post(socketPath, body);
    return (performance.now() - start) / bodies.length;
  };
  const firstPass = await pass();
  const warm = [await pass(), await pass(), await pass()];
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  return { ready, firstMs, firstPass, warm: median(warm) };
}

const gethEvm = process.env.GETH_EVM || undefined;
const samples = {
  process_ms: [],
  geth_process_ms: [],
  server_first_pass_ms: [],
  server_ms: [],
  server_start_ms: [],
  server_first_ms: [],
};
for (let r = 0; r < rounds; r++) {
  samples.process_ms.push(processes([process.execPath, bin]));
  if (gethEvm !== undefined) samples.geth_process_ms.push(processes([gethEvm]));
  const s = await server();
  samples.server_first_pass_ms.push(s.firstPass);
  samples.server_ms.push(s.warm);
  samples.server_start_ms.push(s.ready);
  samples.server_first_ms.push(s.firstMs);
}
rmSync(out, { recursive: true, force: true });
const in_process_ms = await inProcess();
const round = (x) => Math.round(x * 100) / 100;
const process_ms = median(samples.process_ms);
const server_ms = median(samples.server_ms);
console.log(
  JSON.stringify(
    {
      node: process.version,
      transitions_per_round: cases.length,
      rounds,
      t8n_process_ms_per_transition: round(process_ms),
      t8n_server_ms_per_transition: round(server_ms),
      server_over_process: round(server_ms / process_ms),
      geth_evm_t8n_process_ms_per_transition:
        gethEvm === undefined ? null : round(median(samples.geth_process_ms)),
      in_process_ms_per_transition: round(in_process_ms),
      t8n_server_first_pass_ms_per_transition: round(median(samples.server_first_pass_ms)),
      server_start_ms: round(median(samples.server_start_ms)),
      server_first_request_ms: round(median(samples.server_first_ms)),
      samples: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.map(round)])),
    },
    null,
    2,
  ),
);
