/**
 * Which networks run by geth's UBT rules (go-ethereum tests/init.go, params/config.go):
 * - `Verkle` = Shanghai + UBTTime 0: geth's `verkleInstructionSet` (Shanghai + EIP-4762 opcode gas).
 * - `Binary` = Cancun, Prague, Osaka at 0 + UBTTime 0: geth's instruction-set switch tests
 *   `IsOsaka` before `IsUBT`, so Osaka's opcode gas runs and only the UBT charges made outside
 *   the interpreter table apply (code chunks, calls to absent accounts, contract creation).
 * - a genesis `config` with `ubtTime` (and `enableUBTAtGenesis`), as geth's `TestProcessUBT`:
 *   its fork schedule decides the base; UBT from `ubtTime` on.
 * `IsUBT = IsLondon && ubtTime <= time`; EIP-2929 is off under UBT (`Rules().IsEIP2929`).
 */
export interface UbtNetwork {
  /** The fixture / t8n network name. */
  readonly name: string;
  /** The ethereumjs fork the block runs on (shanghai, cancun, prague, osaka). */
  readonly baseFork: string;
  /** geth's `verkleInstructionSet` (EIP-4762 opcode gas) — false when Osaka's table wins. */
  readonly verkleOpcodes: boolean;
  /** The EIP-7685 request system calls (7002, 7251) and deposit logs: Prague-based only. */
  readonly pragueRequests: boolean;
}

const VERKLE: UbtNetwork = {
  name: "Verkle",
  baseFork: "shanghai",
  verkleOpcodes: true,
  pragueRequests: false,
};
const BINARY: UbtNetwork = {
  name: "Binary",
  baseFork: "osaka",
  verkleOpcodes: false,
  pragueRequests: true,
};

/** Fork schedule keys of a geth genesis config, newest first, with the ethereumjs fork. */
const CONFIG_FORKS: readonly (readonly [string, string])[] = [
  ["osakaTime", "osaka"],
  ["pragueTime", "prague"],
  ["cancunTime", "cancun"],
  ["shanghaiTime", "shanghai"],
];

/**
 * The UBT network of a fixture or t8n fork name (and genesis config), or undefined for an MPT
 * network. A config with `ubtTime` 0 (or `enableUBTAtGenesis`) makes any post-Shanghai network UBT.
 */
export function ubtNetworkOf(
  network: string,
  config?: Readonly<Record<string, unknown>>,
): UbtNetwork | undefined {
  if (network === "Verkle") return VERKLE;
  if (network === "Binary") return BINARY;
  if (config === undefined) return undefined;
  const ubtTime = config.ubtTime ?? config.UBTTime;
  if (ubtTime === undefined && config.enableUBTAtGenesis !== true) return undefined;
  if (ubtTime !== undefined && Number(ubtTime) !== 0) return undefined;
  for (const [key, fork] of CONFIG_FORKS) {
    if (config[key] !== undefined && Number(config[key]) === 0) {
      // geth's switch picks the Osaka table first, then the Verkle table for every other UBT fork.
      return fork === "shanghai"
        ? { ...VERKLE, name: network }
        : {
            name: network,
            baseFork: fork,
            verkleOpcodes: fork !== "osaka",
            pragueRequests: fork !== "cancun",
          };
    }
  }
  return { ...VERKLE, name: network };
}
