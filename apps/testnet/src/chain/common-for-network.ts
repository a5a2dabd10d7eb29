import { assertKnownOptions } from "@bintrie/codec";
import {
  type ChainConfig,
  type Common,
  ConsensusAlgorithm,
  ConsensusType,
  type HardforkTransitionConfig,
  Mainnet,
} from "@ethereumjs/common";
import { UbtCommon } from "../ubt/ubt-common.js";
import { ubtNetworkOf } from "../ubt/ubt-network.js";
import { BLOB_PARAMETER_FORKS, BLOB_PARAMETER_FORKS_AFTER } from "./blob-parameter-forks.js";
import { getKzg } from "./kzg.js";
import { ecrecover } from "./native-ecrecover.js";
import { ecsign } from "./native-ecsign.js";
import { ParamsCachingCommon } from "./params-caching-common.js";
import { TestnetError } from "./testnet-error.js";

/** Fixture fork names whose ethereumjs name is not just the lowercased name. */
const FORK_ALIASES: Readonly<Record<string, string>> = {
  frontier: "chainstart",
  constantinoplefix: "petersburg",
  eip150: "tangerineWhistle",
  tangerinewhistle: "tangerineWhistle",
  eip158: "spuriousDragon",
  spuriousdragon: "spuriousDragon",
  muirglacier: "muirGlacier",
  arrowglacier: "arrowGlacier",
  grayglacier: "grayGlacier",
  merge: "paris",
};

/** Mainnet's forks in order, with the blob-parameter forks the library lacks after its bpo2. */
const MAINNET_FORKS = ((names: string[]) => {
  const at = names.indexOf(BLOB_PARAMETER_FORKS_AFTER) + 1;
  return [...names.slice(0, at), ...Object.keys(BLOB_PARAMETER_FORKS), ...names.slice(at)];
})(Mainnet.hardforks.map((h) => h.name));
const FIRST_POS_FORK = MAINNET_FORKS.indexOf("paris");
/** Mainnet forks a transition network's fork does not bring with it (see commonForNetwork). */
const NOT_WITH_TRANSITION = new Set(["dao", "mergeNetsplitBlock"]);

export interface NetworkOptions {
  /** Chain id of the network (fixtures use 1). */
  readonly chainId?: number;
  /** The fixture's genesis `config` (a `ubtTime` / `enableUBTAtGenesis` there makes it UBT). */
  readonly config?: Readonly<Record<string, unknown>>;
}

const NETWORK_OPTION_KEYS: readonly (keyof NetworkOptions)[] = ["chainId", "config"];

/** A fixture network: one fork from genesis, or "XToYAtTime15k" / "XToYAtN" transitions. */
export interface ParsedNetwork {
  readonly genesisFork: string;
  readonly transition?: {
    readonly fork: string;
    readonly timestamp?: number;
    readonly block?: number;
  };
}

/** Maps a fixture fork name (Cancun, ConstantinopleFix, BPO1…) to its ethereumjs name. */
export function ethereumjsForkName(name: string): string {
  const lower = name.toLowerCase();
  const fork = FORK_ALIASES[lower] ?? lower;
  if (fork === "amsterdam") {
    // Both are drafts, and not the same one: geth's (02b73d4) calls a builder deposit queue
    // contract after every block and has EIP-7843/8024/8037/8038; the library's has others
    // (EIP-2780, 7708, 7928…) and no such call. A result here would not be geth's.
    throw new TestnetError(
      "UNKNOWN_NETWORK",
      `fork '${name}' is not supported: @ethereumjs/common's amsterdam is another draft than geth's (geth calls a builder deposit queue contract after every block; the library has other EIPs)`,
    );
  }
  if (!MAINNET_FORKS.includes(fork)) {
    throw new TestnetError(
      "UNKNOWN_NETWORK",
      `fork '${name}' is not known to @ethereumjs/common (known: ${MAINNET_FORKS.join(", ")})`,
    );
  }
  return fork;
}

/** Parses a fixture `network` field. */
export function parseNetwork(network: string): ParsedNetwork {
  const byDifficulty = /^(.+?)To(.+?)AtDiff([0-9A-Fa-f]+)$/.exec(network);
  if (byDifficulty !== null) {
    throw new TestnetError(
      "UNKNOWN_NETWORK",
      `network '${network}': a transition at a total difficulty (geth's TerminalTotalDifficulty 0x${byDifficulty[3]}) is not supported: @ethereumjs/common 10 changes forks by block number or timestamp only`,
    );
  }
  const transition = /^(.+?)To(.+?)At(Time)?(\d+)(k?)$/.exec(network);
  if (transition === null) return { genesisFork: ethereumjsForkName(network) };
  const [, from, to, isTime, digits, kilo] = transition;
  const at = Number(digits) * (kilo === "k" ? 1000 : 1);
  return {
    genesisFork: ethereumjsForkName(from!),
    transition:
      isTime === "Time"
        ? { fork: ethereumjsForkName(to!), timestamp: at }
        : { fork: ethereumjsForkName(to!), block: at },
  };
}

/** How many networks' Commons are kept to copy from (a t8n server may see any chain id). */
const TEMPLATE_LIMIT = 32;
/** The Common of each network lately asked for, by network, chain id and config. */
const TEMPLATES = new Map<string, ParamsCachingCommon>();

/**
 * The Common for a fixture network: mainnet's fork list cut at the network's fork (earlier forks
 * active from genesis, the transition fork at its time or block), PoW before Paris, PoS from
 * Paris on, KZG for the point-evaluation precompile and blob transactions. Each call gives a new
 * instance that shares nothing it can change with another (a detached copy of one kept per
 * network: the parameter caches its library components build are then built once per network,
 * not once per test or transition).
 */
export function commonForNetwork(network: string, options: NetworkOptions = {}): Common {
  assertKnownOptions(options, NETWORK_OPTION_KEYS, "commonForNetwork", TestnetError);
  const key = templateKey(network, options);
  if (key === undefined) return buildCommon(network, options);
  let template = TEMPLATES.get(key);
  if (template === undefined) {
    template = buildCommon(network, options);
    if (TEMPLATES.size >= TEMPLATE_LIMIT) TEMPLATES.delete(TEMPLATES.keys().next().value!);
  } else {
    TEMPLATES.delete(key);
  }
  TEMPLATES.set(key, template);
  return template.detachedCopy();
}

/** The network's key among the templates; undefined for a config JSON cannot spell (a bigint). */
function templateKey(network: string, options: NetworkOptions): string | undefined {
  try {
    return JSON.stringify([network, options.chainId ?? null, options.config ?? null]);
  } catch {
    return undefined;
  }
}

function buildCommon(network: string, options: NetworkOptions): ParamsCachingCommon {
  const ubt = ubtNetworkOf(network, options.config);
  const parsed = ubt !== undefined ? { genesisFork: ubt.baseFork } : parseNetwork(network);
  const genesisIndex = MAINNET_FORKS.indexOf(parsed.genesisFork);
  const hardforks: HardforkTransitionConfig[] = [];
  for (let i = 0; i < genesisIndex; i++) {
    hardforks.push({ name: MAINNET_FORKS[i]!, block: null, timestamp: 0 });
  }
  hardforks.push({ name: parsed.genesisFork, block: 0, timestamp: 0 });
  let lastFork = parsed.genesisFork;
  if ("transition" in parsed && parsed.transition !== undefined) {
    const { fork, timestamp, block } = parsed.transition;
    const at: Omit<HardforkTransitionConfig, "name"> =
      timestamp !== undefined ? { block: null, timestamp } : { block: block ?? null };
    // The forks between take effect with the transition, as geth's networks set them
    // (ByzantiumToConstantinopleFixAt5: Constantinople and Petersburg at 5); not the DAO's
    // irregular state change (geth's HomesteadToEIP150At5 has no DAO block) nor the merge's
    // fork-id marker, which carry no rules.
    const forkIndex = MAINNET_FORKS.indexOf(fork);
    for (let i = genesisIndex + 1; i < forkIndex; i++) {
      const between = MAINNET_FORKS[i]!;
      if (!NOT_WITH_TRANSITION.has(between)) hardforks.push({ name: between, ...at });
    }
    hardforks.push({ name: fork, ...at });
    lastFork = fork;
  }
  const proofOfStake = MAINNET_FORKS.indexOf(lastFork) >= FIRST_POS_FORK;
  const chain: ChainConfig = {
    ...Mainnet,
    chainId: options.chainId ?? Mainnet.chainId,
    hardforks,
    customHardforks: BLOB_PARAMETER_FORKS,
    defaultHardfork: parsed.genesisFork,
    consensus: proofOfStake
      ? { type: ConsensusType.ProofOfStake, algorithm: ConsensusAlgorithm.Casper }
      : { type: ConsensusType.ProofOfWork, algorithm: ConsensusAlgorithm.Ethash, ethash: {} },
  };
  const opts = {
    chain,
    hardfork: parsed.genesisFork,
    customCrypto: { kzg: getKzg(), ecrecover, ecsign },
  };
  return ubt !== undefined ? new UbtCommon(opts, ubt) : new ParamsCachingCommon(opts);
}
