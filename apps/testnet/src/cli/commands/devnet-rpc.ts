import { bytesToHex } from "@bintrie/core";
import { devAccount } from "../../devnet/dev-accounts.js";
import { DevnetChain } from "../../devnet/devnet-chain.js";
import { EthApi } from "../../devnet/rpc/eth-api.js";
import { JsonRpcServer } from "../../devnet/rpc/json-rpc-server.js";
import { prepareOutputFile, writeOutputFile } from "../../io/output-files.js";
import type { CliIO } from "../cli-io.js";
import type { ExitCode } from "../exit-codes.js";
import { untilSignalled } from "../until-signalled.js";
import { runTests } from "./run.js";

export interface DevnetRpcFlags {
  readonly genesis?: string;
  readonly port: number;
  readonly host: string;
  readonly out: string;
}

/**
 * `devnet --rpc`: a JSON-RPC node on the devnet's chain, mining one block per transaction sent,
 * until `stop` resolves (by default the first SIGINT or SIGTERM); then the chain is written to
 * --out as a binary fixture and re-executed (its exit code is the command's). Stdout: the chain
 * id, the dev accounts and their (public) keys, `listening <url>`, then a line per block.
 */
export async function runDevnetRpc(
  flags: DevnetRpcFlags,
  io: CliIO,
  version: string,
  stop?: Promise<void>,
): Promise<ExitCode> {
  await prepareOutputFile(flags.out, "--out");
  const chain = await DevnetChain.open({
    genesisPath: flags.genesis,
    onBlock: ({ block, transactions }) => {
      io.stdout.write(
        `block ${block.header.number}  txs ${transactions.length}  gas ${block.header.gasUsed}  root ${bytesToHex(block.header.stateRoot)}\n`,
      );
    },
  });
  const api = new EthApi(chain, { version });
  const server = new JsonRpcServer(api);
  const url = await server.listen({ port: flags.port, host: flags.host });
  io.stdout.write(
    `devnet: JSON-RPC node, chain id ${chain.genesis.chainId} (${chain.genesis.fork}), genesis root ${bytesToHex(chain.genesisBlock.header.stateRoot)}\n`,
  );
  for (const [i, address] of api.accounts.entries()) {
    io.stdout.write(`account ${i} ${address} key ${bytesToHex(devAccount(i).key)}\n`);
  }
  io.stdout.write(`listening ${url}\n`);
  await (stop ?? untilSignalled());
  await server.close();
  const fixture = await chain.fixture();
  await writeOutputFile(flags.out, `${JSON.stringify({ devnet: fixture }, null, 2)}\n`, "--out");
  io.stdout.write(
    `devnet: ${server.answered} calls answered, ${chain.blocks.length} blocks; wrote ${flags.out}\nre-executing it:\n`,
  );
  return runTests([flags.out], {}, io);
}
