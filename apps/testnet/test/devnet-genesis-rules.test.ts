import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TestnetError } from "../src/chain/testnet-error.js";
import { DEFAULT_DEVNET_GENESIS, readDevnetGenesis } from "../src/devnet/devnet-genesis.js";
import { produceDevnet } from "../src/devnet/run-devnet.js";
import { runBlockchainTest } from "../src/runner/run-blockchain-test.js";
import { readDataJson } from "./test-data.js";

/**
 * A devnet genesis whose `config` makes it UBT (ubtTime 0, or enableUBTAtGenesis alone, as the
 * README says) on any post-Shanghai fork: the fixture must carry what `run` needs to pick the
 * same rules, so re-executing it reproduces every header (gas by UBT rules, binary roots).
 */
const dir = mkdtempSync(join(tmpdir(), "bintrie-testnet-devnet-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The Prague system contracts, as geth's devnet genesis for the Binary network has them: every
// Prague block calls the two request queues, and geth refuses a block without them.
const binaryGenesis = readDataJson<{ alloc: Record<string, unknown> }>(
  "geth-ubt/devnet-accepted/binary-chain1.genesis.json",
);
const SYSTEM_CONTRACTS = Object.fromEntries(
  Object.entries(binaryGenesis.alloc).filter(([address]) => address.startsWith("0x0000")),
);

function genesisWith(
  name: string,
  change: (config: Record<string, unknown>) => void,
  alloc: Record<string, unknown> = {},
): string {
  const genesis = JSON.parse(readFileSync(DEFAULT_DEVNET_GENESIS, "utf8"));
  change(genesis.config);
  Object.assign(genesis.alloc, alloc);
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(genesis));
  return path;
}

const PRAGUE = (c: Record<string, unknown>) => Object.assign(c, { cancunTime: 0, pragueTime: 0 });
const VARIANTS: readonly [string, (c: Record<string, unknown>) => void, string, object?][] = [
  ["cancun", (c) => Object.assign(c, { cancunTime: 0 }), "Cancun"],
  ["prague", PRAGUE, "Prague", SYSTEM_CONTRACTS],
  ["enableUBTAtGenesis only", (c) => delete c.ubtTime, "Verkle"],
];

describe("devnet fixtures of UBT genesis variants re-execute under the same rules", () => {
  for (const [name, change, network, alloc] of VARIANTS) {
    it(name, async () => {
      const genesisPath = genesisWith(name.replace(/ /g, "-"), change, { ...alloc });
      const devnet = await produceDevnet({ genesisPath, blocks: 2 });
      expect(devnet.fixture.network).toBe(network);
      const config = devnet.fixture.config as Record<string, unknown>;
      expect(config.enableUBTAtGenesis).toBe(true);
      const result = await runBlockchainTest({ file: name, name, test: devnet.fixture });
      expect(result.failures).toEqual([]);
      expect(result.blockRoots).toEqual(devnet.blocks.map((b) => b.root));
    }, 30_000);
  }
});

describe("a devnet genesis whose blocks geth would refuse", () => {
  it("Prague without the request queue contracts: an error naming geth's reason and the genesis", async () => {
    const genesisPath = genesisWith("prague-no-queues", PRAGUE);
    await expect(produceDevnet({ genesisPath, blocks: 1 })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      message: `devnet block 1: failed to process withdrawal queue: empty system contract: no code at 0x00000961Ef480Eb55e80D19ad83579A64c007002 (geth refuses the block; genesis ${genesisPath})`,
    });
  });
});

describe("a malformed devnet genesis is one coded error naming the file and field", () => {
  const cases: [string, (g: Record<string, unknown>) => void, RegExp][] = [
    [
      "an alloc entry null",
      (g) =>
        Object.assign(g.alloc as object, { "0x00000000000000000000000000000000000000aa": null }),
      /null-entry\.json: alloc\[0x0{38}aa\] must be an object, got null$/,
    ],
    [
      'config.chainId "abc"',
      (g) => Object.assign(g.config as object, { chainId: "abc" }),
      /chain-id\.json: config\.chainId: expected a non-negative integer, got "abc"$/,
    ],
    ["no gasLimit", (g) => delete g.gasLimit, /no-gas-limit\.json: gasLimit: missing$/],
  ];
  const files = ["null-entry", "chain-id", "no-gas-limit"];
  cases.forEach(([name, change, message], i) => {
    it(name, async () => {
      const genesis = JSON.parse(readFileSync(DEFAULT_DEVNET_GENESIS, "utf8"));
      change(genesis);
      const path = join(dir, `${files[i]}.json`);
      writeFileSync(path, JSON.stringify(genesis));
      const error = await readDevnetGenesis(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TestnetError);
      expect((error as Error).message).toMatch(message);
    });
  });
});

describe("a devnet genesis's bare alloc numbers are read by their digits, as geth reads them", () => {
  it("a balance past 2^53 is exact; 1e21 is refused naming the account", async () => {
    const genesis = readFileSync(DEFAULT_DEVNET_GENESIS, "utf8");
    const address = "0x00000000000000000000000000000000000000aa";
    const withAccount = (account: string) =>
      genesis.replace(/"alloc"\s*:\s*\{/, `"alloc": {"${address}": ${account},`);
    const exact = join(dir, "bare-balance.json");
    writeFileSync(
      exact,
      withAccount(`{"balance": 1000000000000000000000001, "nonce": 9007199254740993}`),
    );
    const read = await readDevnetGenesis(exact);
    expect(read.alloc[address]).toMatchObject({
      balance: `0x${(10n ** 24n + 1n).toString(16)}`,
      nonce: `0x${(2n ** 53n + 1n).toString(16)}`,
    });
    const refused = join(dir, "bare-exponent.json");
    writeFileSync(refused, withAccount(`{"balance": 1e21}`));
    const error = await readDevnetGenesis(refused).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestnetError);
    expect((error as Error).message).toContain(`alloc[${address}].balance: "1e21"`);
  });
});
