import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { bytesToHex } from "@bintrie/core";
import { describe, expect, it } from "vitest";
import { COUNTER_RUNTIME, deployCode } from "../src/devnet/contracts.js";
import { devAccount } from "../src/devnet/dev-accounts.js";
import { DevnetChain } from "../src/devnet/devnet-chain.js";
import { EthApi } from "../src/devnet/rpc/eth-api.js";
import { JsonRpcServer } from "../src/devnet/rpc/json-rpc-server.js";
import { GETH_EVM } from "./geth-tools.js";
import { dataPath, readDataJson } from "./test-data.js";

/**
 * A chain mined through the JSON-RPC node is one go-ethereum imports: a fixed script of calls
 * (transfers, deployments, a counter, a log, a reverting transaction, an empty block) on geth's
 * two UBT networks, chain id 1 as geth's blocktest runner needs. geth's `evm blocktest` ran the
 * fixture of each and passed it; its verdicts are vendored (`geth-ubt/devnet-rpc/`,
 * PROVENANCE.md). The node is deterministic (blocks 12 s apart, its own fee choices, the public
 * dev keys), so the same script must give the same head hash — which commits to every header,
 * state roots included. With GETH_EVM set, geth runs the fixture made now as well.
 */
interface Verdict {
  readonly blocks: number;
  readonly pass: boolean;
  readonly stateRoot: string;
  readonly lastblockhash: string;
}

const verdicts = readDataJson<Record<string, Verdict | string>>(
  "geth-ubt/devnet-rpc/geth-verdicts.json",
);

/** Runtime code reverting with empty data. */
const REVERT_RUNTIME = new Uint8Array([0x60, 0x00, 0x60, 0x00, 0xfd]);
/** Runtime code emitting LOG1(topic 0xaa…, data 0x2a word). */
const LOGGER_RUNTIME = Uint8Array.from(
  Buffer.from(`602a6000527f${"aa".repeat(32)}60206000a100`, "hex"),
);

async function script(genesisPath: string): Promise<DevnetChain> {
  const chain = await DevnetChain.open({ genesisPath });
  const server = new JsonRpcServer(new EthApi(chain, { version: "test" }));
  let id = 0;
  const call = async (method: string, params: unknown[]): Promise<unknown> => {
    const answer = JSON.parse(
      (await server.answer(JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params })))!,
    ) as { result?: unknown; error?: { message: string } };
    if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result;
  };
  const from = (i: number) => devAccount(i).address.toString();
  const receipt = async (hash: unknown) =>
    (await call("eth_getTransactionReceipt", [hash])) as {
      contractAddress: string;
      status: string;
    };
  await call("eth_sendTransaction", [{ from: from(0), to: from(1), value: "0xde0b6b3a7640000" }]);
  await call("eth_sendTransaction", [
    { from: from(1), to: "0x00000000000000000000000000000000000b0b01", value: "0x1" },
  ]);
  const deployed = async (i: number, runtime: Uint8Array) =>
    (
      await receipt(
        await call("eth_sendTransaction", [
          { from: from(i), data: bytesToHex(deployCode(runtime)) },
        ]),
      )
    ).contractAddress;
  const counter = await deployed(2, COUNTER_RUNTIME);
  await call("eth_sendTransaction", [{ from: from(2), to: counter }]);
  await call("eth_sendTransaction", [{ from: from(3), to: counter }]);
  const logger = await deployed(3, LOGGER_RUNTIME);
  await call("eth_sendTransaction", [{ from: from(0), to: logger }]);
  const reverter = await deployed(4, REVERT_RUNTIME);
  // An estimate of a reverting call fails: the gas is given, and the transaction is mined failed.
  const failed = await receipt(
    await call("eth_sendTransaction", [{ from: from(4), to: reverter, gas: "0x186a0" }]),
  );
  expect(failed.status).toBe("0x0");
  await call("evm_mine", []);
  await server.close();
  return chain;
}

describe("devnet JSON-RPC chains that go-ethereum imported (evm blocktest: pass)", () => {
  for (const [file, verdict] of Object.entries(verdicts)) {
    if (typeof verdict === "string") continue;
    it(`${file}: ${verdict.blocks} blocks, geth's head hash and state root`, async () => {
      expect(verdict.pass).toBe(true);
      const chain = await script(dataPath(`geth-ubt/devnet-accepted/${file}`));
      const fixture = await chain.fixture();
      expect(fixture.blocks).toHaveLength(verdict.blocks);
      expect(bytesToHex(chain.head.header.stateRoot)).toBe(verdict.stateRoot);
      expect(fixture.lastblockhash).toBe(verdict.lastblockhash);
      if (GETH_EVM === undefined) return;
      const dir = await mkdtemp(join(tmpdir(), "devnet-rpc-geth-"));
      try {
        const path = join(dir, "fixture.json");
        await writeFile(path, JSON.stringify({ [file]: fixture }));
        const { stdout } = await promisify(execFile)(GETH_EVM, ["blocktest", path]);
        const [geth] = JSON.parse(stdout) as { pass: boolean; stateRoot: string }[];
        expect(geth).toMatchObject({ pass: true, stateRoot: verdict.stateRoot });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }, 120_000);
  }
});
