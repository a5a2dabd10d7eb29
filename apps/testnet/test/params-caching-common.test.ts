import { paramsBlock } from "@ethereumjs/block";
import { Common, Mainnet, type ParamsDict } from "@ethereumjs/common";
import { paramsEVM } from "@ethereumjs/evm";
import { paramsTx } from "@ethereumjs/tx";
import { paramsVM } from "@ethereumjs/vm";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { commonForNetwork } from "../src/chain/common-for-network.js";
import { ParamsCachingCommon } from "../src/chain/params-caching-common.js";
import { BinaryStateManager } from "../src/state/binary-state-manager.js";
import { createExecutionVM } from "../src/ubt/create-ubt-vm.js";

/** The library's tables, and small ones that overlap them and each other (same EIPs and names). */
const LIBRARY_TABLES: readonly ParamsDict[] = [paramsTx, paramsBlock, paramsEVM, paramsVM];
const EIPS = ["1", "1559", "4844", "7702", "shanghai"];
const NAMES = ["txGas", "baseFeeMaxChangeDenominator", "blobGasPerBlob", "extra", "other"];
const table = fc.dictionary(
  fc.constantFrom(...EIPS),
  fc.dictionary(
    fc.constantFrom(...NAMES),
    fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(null)),
  ),
  { minKeys: 1, maxKeys: 3 },
);
/** A table whose EIP entry is null: what an untyped caller may pass (the library spreads it as {}). */
const NULL_TABLE = { 1559: null } as unknown as ParamsDict;
const params = fc.oneof(fc.constantFrom(...LIBRARY_TABLES, NULL_TABLE), table);
const FORKS = ["shanghai", "cancun", "prague"];

type Step =
  | { op: "update"; on: number; params: ParamsDict }
  | { op: "again"; on: number; earlier: number }
  | { op: "reset"; on: number; params: ParamsDict }
  | { op: "copy"; on: number }
  | { op: "detach"; on: number }
  | { op: "fork"; on: number; fork: string };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant("update" as const), on: fc.nat(), params }) },
  // A table given before (to any instance): what the library's constructors do all day.
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("again" as const), on: fc.nat(), earlier: fc.nat() }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("reset" as const), on: fc.nat(), params }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("copy" as const), on: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("detach" as const), on: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("fork" as const),
      on: fc.nat(),
      fork: fc.constantFrom(...FORKS),
    }),
  },
);

function paramsOf(common: Common): ParamsDict {
  return (common as unknown as { _params: ParamsDict })._params;
}

/** Every parameter a Common answers for the names the tables use: its value or its error. */
function answers(common: Common): Record<string, string> {
  const names = new Set(NAMES);
  for (const t of LIBRARY_TABLES)
    for (const eip of Object.values(t)) for (const n in eip) names.add(n);
  const out: Record<string, string> = {};
  for (const name of names) {
    try {
      out[name] = common.param(name).toString();
    } catch (cause) {
      out[name] = `error: ${(cause as Error).message}`;
    }
  }
  return out;
}

describe("ParamsCachingCommon: the library's Common as the reference", () => {
  it("answers every parameter as the library does after any sequence of updates, resets, copies, detached copies and forks", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const opts = { chain: Mainnet, hardfork: "cancun" };
        const library: Common[] = [new Common(opts)];
        const ours: Common[] = [new ParamsCachingCommon(opts)];
        const given: ParamsDict[] = [paramsTx];
        for (const s of steps) {
          const at = s.on % library.length;
          const pair = [library[at]!, ours[at]!];
          if (s.op === "copy") {
            library.push(pair[0]!.copy());
            ours.push(pair[1]!.copy());
            continue;
          }
          if (s.op === "detach") {
            // The library's way to a copy with its own tables: a copy reset to the same ones.
            const copy = pair[0]!.copy();
            copy.resetParams(paramsOf(pair[0]!));
            library.push(copy);
            ours.push((pair[1] as ParamsCachingCommon).detachedCopy());
            continue;
          }
          if (s.op === "update" || s.op === "reset") given.push(s.params);
          for (const common of pair) {
            if (s.op === "update") common.updateParams(s.params);
            else if (s.op === "again") common.updateParams(given[s.earlier % given.length]!);
            else if (s.op === "reset") common.resetParams(s.params);
            else common.setHardfork(s.fork);
          }
          // Every instance, not only the one changed: copies share their parameter tables.
          for (let k = 0; k < library.length; k++) {
            expect(answers(ours[k]!)).toEqual(answers(library[k]!));
          }
        }
      }),
      {
        numRuns: 300,
        examples: [
          // The EVM's and the VM's tables disagree (EIP-2935's historyServeWindow): a detached
          // copy moves back and forth between the two contents its original went through, and
          // the original must not see the copy's moves.
          [
            [
              { op: "update", on: 0, params: paramsEVM },
              { op: "update", on: 0, params: paramsVM },
              { op: "detach", on: 0 },
              { op: "update", on: 1, params: paramsEVM },
              { op: "fork", on: 1, fork: "prague" },
              { op: "update", on: 1, params: paramsVM },
              { op: "update", on: 1, params: paramsEVM },
              { op: "update", on: 0, params: paramsEVM },
            ],
          ],
          // A copy on another fork changes a value; the original is then given that table: its
          // cache, built before the change, must not be taken for the new value.
          [
            [
              { op: "update", on: 0, params: { 1: { txGas: 1 } } },
              { op: "copy", on: 0 },
              { op: "fork", on: 1, fork: "shanghai" },
              { op: "update", on: 1, params: { 1: { txGas: 2 } } },
              { op: "again", on: 0, earlier: 2 },
            ],
          ],
        ],
      },
    );
  });

  it("merges a table changed since it was first given as the library does", () => {
    const opts = { chain: Mainnet, hardfork: "cancun" };
    const table: ParamsDict = { 1: { txGas: 5 } };
    const first = new ParamsCachingCommon(opts);
    const template = first.detachedCopy();
    first.updateParams(table);
    table[1]!.txGas = 6;
    const second = template.detachedCopy();
    second.updateParams(table);
    const reference = new Common(opts);
    reference.updateParams(table);
    expect(second.param("txGas")).toBe(6n);
    expect(answers(second)).toEqual(answers(reference));
    expect(first.param("txGas")).toBe(5n);
  });

  it("keeps its class through copies, and a fixture network's Common is one", () => {
    const common = commonForNetwork("Prague");
    expect(common).toBeInstanceOf(ParamsCachingCommon);
    expect(common.copy()).toBeInstanceOf(ParamsCachingCommon);
    expect(commonForNetwork("Verkle", { config: { enableUBTAtGenesis: true } })).toBeInstanceOf(
      ParamsCachingCommon,
    );
  });

  it("takes the cache an earlier copy built instead of building it again", () => {
    const chain = new ParamsCachingCommon({ chain: Mainnet, hardfork: "prague" });
    const first = chain.copy();
    first.updateParams(paramsTx);
    const second = chain.copy();
    second.updateParams(paramsTx);
    const cacheOf = (c: Common) => (c as unknown as { _paramsCache: object })._paramsCache;
    expect(cacheOf(second)).toBe(cacheOf(first));
    // The library's own Common builds a new one each time.
    const plain = new Common({ chain: Mainnet, hardfork: "prague" });
    const a = plain.copy();
    a.updateParams(paramsTx);
    const b = plain.copy();
    b.updateParams(paramsTx);
    expect(cacheOf(b)).not.toBe(cacheOf(a));
  });

  it("gives each caller of commonForNetwork its own tables, and builds a network's caches once", async () => {
    for (const network of ["Prague", "Verkle", "Osaka"]) {
      const a = commonForNetwork(network);
      const b = commonForNetwork(network);
      expect(b).not.toBe(a);
      a.updateParams(paramsTx);
      a.updateParams({ 1: { txGas: 1 } });
      a.setHardfork("london");
      expect(a.param("txGas")).toBe(1n);
      expect(() => b.param("txGas")).toThrow("Missing parameter value for txGas");
      b.updateParams(paramsTx);
      expect(b.param("txGas")).toBe(21000n);
      expect(commonForNetwork(network).updateParams(paramsTx)).toBeUndefined();
      expect(b.hardfork()).not.toBe("london");
      // A VM on a network's Common: the EVM's and VM's tables, merged once for the network.
      await createExecutionVM({
        common: commonForNetwork(network),
        stateManager: new BinaryStateManager(),
      });
      const builds = vi.spyOn(Common.prototype, "_buildParamsCache" as never);
      const updates = vi.spyOn(Common.prototype, "updateParams");
      try {
        const common = commonForNetwork(network);
        await createExecutionVM({ common, stateManager: new BinaryStateManager() });
        expect(builds).not.toHaveBeenCalled();
        expect(updates).not.toHaveBeenCalled();
        // The VM's value (geth's too), which the VM's table, given last, always left.
        if (network !== "Verkle") expect(common.param("historyServeWindow")).toBe(8191n);
      } finally {
        builds.mockRestore();
        updates.mockRestore();
      }
    }
  });

  it("lists the hardforks the library lists, building the list once per chain configuration", () => {
    for (const network of ["Prague", "Osaka", "ShanghaiToCancunAtTime15k", "Verkle", "Frontier"]) {
      const common = commonForNetwork(network);
      const library = Common.prototype.hardforks.call(common);
      expect(common.hardforks()).toEqual(library);
      expect(common.hardforks()).toBe(common.hardforks());
      expect(commonForNetwork(network).hardforks()).toBe(common.hardforks());
      // A configuration whose list is replaced gets a list built from the new one.
      const chain = (common as unknown as { _chainParams: { hardforks: unknown[] } })._chainParams;
      const detached = new ParamsCachingCommon({ chain: structuredClone(chain) as never });
      const before = detached.hardforks();
      const own = (detached as unknown as { _chainParams: { hardforks: unknown[] } })._chainParams;
      own.hardforks = own.hardforks.slice(0, 3);
      expect(detached.hardforks()).not.toBe(before);
      expect(detached.hardforks()).toEqual(Common.prototype.hardforks.call(detached));
    }
  });
});
