// Dev tool: what a client waits for on `bintrie-testnet devnet --rpc` (node bench/devnet-rpc.mjs
// [N]): the built bin started on a free port, then over one keep-alive HTTP connection N calls
// each of eth_blockNumber (the HTTP and JSON-RPC floor), eth_getBalance, eth_call (a counter
// contract's code run on the head state and taken back) and eth_sendTransaction (a transfer the
// node signs and mines into a block of its own: a block per call), one after the other; prints
// one JSON document with the median and 90th percentile per method and the blocks per second.
// Needs `pnpm build`.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const n = Number(process.argv[2] ?? 200);
const bin = fileURLToPath(new URL("../apps/testnet/bin/bintrie-testnet.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "devnet-rpc-bench-"));
const load = loadavg()[0];
const node = spawn(process.execPath, [
  bin,
  "devnet",
  "--rpc",
  "--port",
  "0",
  "--out",
  join(dir, "chain.json"),
]);
let out = "";
const url = await new Promise((resolve, reject) => {
  node.stdout.on("data", (chunk) => {
    out += chunk;
    const match = /^listening (\S+)$/m.exec(out);
    if (match !== null) resolve(new URL(match[1]));
  });
  node.once("exit", (code) => reject(new Error(`the node exited with ${code}:\n${out}`)));
});
const accounts = [...out.matchAll(/^account \d+ (0x[0-9a-f]{40})/gm)].map((m) => m[1]);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
let id = 0;

function call(method, params = []) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: "/",
        method: "POST",
        agent,
        headers: { "Content-Type": "application/json" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (s) => {
          text += s;
        });
        res.on("end", () => {
          const answer = JSON.parse(text);
          if (answer.error !== undefined) reject(new Error(`${method}: ${answer.error.message}`));
          else resolve(answer.result);
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function timed(method, params) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await call(method, typeof params === "function" ? params(i) : params);
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const pick = (q) =>
    Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] * 1000) / 1000;
  return { median_ms: pick(0.5), p90_ms: pick(0.9) };
}

// Warm-up: every path once, then a few rounds.
const counter = "0x00000000000000000000000000000000000c0de2"; // genesis/devnet.json's counter
for (let i = 0; i < 20; i++) {
  await call("eth_blockNumber");
  await call("eth_getBalance", [accounts[1], "latest"]);
  await call("eth_call", [{ to: counter }, "latest"]);
  await call("eth_sendTransaction", [
    { from: accounts[0], to: accounts[2], value: "0x1", gas: "0x186a0" },
  ]);
}
const blocksBefore = Number(await call("eth_blockNumber"));
const result = {
  tool: "bench/devnet-rpc.mjs",
  date: new Date().toISOString(),
  node: process.version,
  calls_per_method: n,
  load_before: load,
  eth_blockNumber: await timed("eth_blockNumber", []),
  eth_getBalance: await timed("eth_getBalance", (i) => [accounts[i % accounts.length], "latest"]),
  eth_call: await timed("eth_call", [{ to: counter }, "latest"]),
};
const started = performance.now();
result.eth_sendTransaction = await timed("eth_sendTransaction", (i) => [
  {
    from: accounts[i % accounts.length],
    to: accounts[(i + 1) % accounts.length],
    value: "0x1",
    gas: "0x186a0",
  },
]);
const seconds = (performance.now() - started) / 1000;
const blocks = Number(await call("eth_blockNumber")) - blocksBefore;
result.blocks = blocks;
result.blocks_per_second = Math.round((blocks / seconds) * 10) / 10;
result.load_after = loadavg()[0];
const exited = new Promise((resolve) => node.once("exit", resolve));
node.kill("SIGTERM");
result.exit_code = await exited;
agent.destroy();
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify(result, null, 2));
