import { readFile } from "node:fs/promises";
import type { GenesisAlloc, KeyScheme } from "@bintrie/core";
import { bytesToHex } from "@bintrie/core";
import type { PreimageSource } from "@bintrie/transition";
import { checkAlloc } from "../alloc-check.js";
import { CliError } from "../cli-error.js";
import { failureReport } from "../error-exit.js";
import { EXIT_USAGE } from "../exit-codes.js";
import { readGenesisAlloc } from "../genesis-file.js";
import { parseHexArg } from "../hex.js";
import { HEX_RULE, isHexText, stripBom } from "../input-rules.js";
import { assertReadableFile, inputName } from "../input-source.js";
import { printLine } from "../line-output.js";
import { openStore } from "../open-store.js";
import { Progress } from "../progress.js";
import { readRootRecord } from "../root-record.js";
import { type StoreFlags, storeTarget } from "../store-target.js";

export interface ConvertFlags extends StoreFlags {
  readonly genesis?: string;
  readonly mptRoot?: string;
  readonly preimages?: string;
  readonly groupDepth?: number;
  readonly scheme?: KeyScheme;
  readonly step?: number;
  readonly json?: boolean;
}

/** Base leaves converted per atomic commit (each commit is a resume point). */
export const DEFAULT_CONVERT_STEP = 10_000;

/**
 * `bintrie convert`: MPT state → binary tree in the same store, resumable. With --genesis, the
 * alloc's MPT state is written into the store first (its base) and its addresses and slots are
 * the preimages; with --mpt-root, the base is already in the store and --preimages names a JSON
 * map keccak(key) → key. Conversion commits every --step base leaves together with its cursor,
 * so a run that is stopped resumes where its last commit ended.
 */
export async function runConvert(flags: ConvertFlags): Promise<void> {
  const target = storeTarget(flags);
  if ((flags.genesis === undefined) === (flags.mptRoot === undefined)) {
    throw new CliError("BAD_USAGE", "give either --genesis FILE or --mpt-root ROOT (not both)");
  }
  if (flags.genesis !== undefined && flags.preimages !== undefined) {
    throw new CliError("BAD_USAGE", "--preimages goes with --mpt-root; --genesis supplies its own");
  }
  const givenRoot =
    flags.mptRoot === undefined
      ? undefined
      : parseHexArg(flags.mptRoot, "--mpt-root", { bytes: 32 });
  const alloc = flags.genesis === undefined ? undefined : await readGenesisAlloc(flags.genesis);
  // Every account is checked as the conversion will write it before the store is opened, so a
  // bad alloc (a nonce past 2^64, say) fails naming it, with nothing written.
  if (alloc !== undefined) await checkAlloc(inputName(flags.genesis!), alloc as GenesisAlloc);
  const transition = await import("@bintrie/transition");
  const core = await import("@bintrie/core");
  const preimages: PreimageSource | undefined =
    alloc !== undefined
      ? transition.preimagesFromAlloc(alloc)
      : flags.preimages === undefined
        ? undefined
        : await readPreimages(flags.preimages, transition.preimagesFromMap);
  const opened = await openStore(target, { create: alloc !== undefined });
  let outcome: {
    root: Uint8Array;
    baseRoot: Uint8Array;
    resumed: boolean;
    counters: import("@bintrie/transition").ConversionCounters;
  };
  // Set once the conversion commits its steps (each one a resume point).
  let converting = false;
  // Base leaves of the steps this run committed: after the first, the store has changed.
  let leavesCommitted = 0;
  try {
    const record = await readRootRecord(opened.store);
    const resumed = record !== undefined;
    const baseRoot =
      alloc === undefined
        ? givenRoot!
        : resumed
          ? (await transition.buildMptBase(new core.MemoryStore(), alloc as GenesisAlloc)).root
          : (await transition.buildMptBase(opened.store, alloc as GenesisAlloc)).root;
    const state = await transition.TransitionState.open(opened.store, {
      baseRoot,
      ...(preimages === undefined ? {} : { preimages }),
      ...(flags.groupDepth === undefined ? {} : { groupDepth: flags.groupDepth }),
      ...(flags.scheme === undefined ? {} : { scheme: flags.scheme }),
    });
    const progress = new Progress("converting base leaves (key space)", 1000, "‰");
    converting = true;
    try {
      const last = await state.convertAll({
        leavesPerStep: flags.step ?? DEFAULT_CONVERT_STEP,
        onProgress: (p) => {
          leavesCommitted += p.stepLeaves;
          progress.update(Math.round(p.fraction * 1000));
        },
      });
      outcome = { root: state.hash(), baseRoot, resumed, counters: last.counters };
    } finally {
      progress.done();
    }
  } catch (caught) {
    // Bad input or usage (exit 2), or any failure before the first step, writes nothing: a
    // database this command created goes again (one that was there before is only closed). A
    // failure while converting keeps the committed steps, so running the command again resumes.
    const error =
      leavesCommitted > 0 ? afterCommittedSteps(caught, flags, leavesCommitted) : caught;
    if (!converting || failureReport(error).exitCode === EXIT_USAGE) await opened.discard();
    else await opened.close();
    throw error;
  }
  await opened.close();
  if (flags.json) {
    printLine(
      JSON.stringify({
        root: bytesToHex(outcome.root),
        mptRoot: bytesToHex(outcome.baseRoot),
        resumed: outcome.resumed,
        ...outcome.counters,
      }),
    );
  } else {
    printLine(bytesToHex(outcome.root));
  }
}

/**
 * A preimage found missing (or wrong) after this run committed steps: exit 2 would promise an
 * unchanged store, so it is a failure (exit 1) that says what was kept and how to resume.
 */
function afterCommittedSteps(error: unknown, flags: ConvertFlags, leaves: number): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  if (name !== "TransitionError" || (code !== "MISSING_PREIMAGE" && code !== "BAD_PREIMAGE")) {
    return error;
  }
  const file = flags.preimages === undefined ? "" : `${flags.preimages}: `;
  return new CliError(
    "NOT_FOUND",
    `${file}${(error as Error).message}; the ${leaves} base leaves this run converted before it are committed (add the preimage and run the same command again to resume)`,
    { cause: error },
  );
}

/** A JSON object of keccak(preimage) → preimage (0x-hex), e.g. a geth preimage dump. */
async function readPreimages(
  file: string,
  fromMap: typeof import("@bintrie/transition").preimagesFromMap,
): Promise<PreimageSource> {
  await assertReadableFile(file);
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripBom(await readFile(file, "utf8")));
  } catch (error) {
    throw new CliError("BAD_INPUT", `${file}: not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new CliError("BAD_INPUT", `${file}: expected a JSON object of hashed key → preimage`);
  }
  // The hex rule of every input (0x, digits of either case), checked here so that an error
  // names the file and the entry, not the library call.
  for (const [key, value] of Object.entries(parsed)) {
    const shownKey = JSON.stringify(key.length > 70 ? `${key.slice(0, 67)}...` : key);
    if (!isHexText(key) || key.length !== 2 + 64) {
      throw new CliError(
        "BAD_INPUT",
        `${file}: key ${shownKey} must be a 32-byte keccak-256 hash (${HEX_RULE}: 64 digits)`,
      );
    }
    if (
      typeof value !== "string" ||
      !isHexText(value) ||
      (value.length !== 42 && value.length !== 66)
    ) {
      const shown =
        typeof value === "string"
          ? JSON.stringify(value.length > 70 ? `${value.slice(0, 67)}...` : value)
          : value === null
            ? "null"
            : typeof value;
      throw new CliError(
        "BAD_INPUT",
        `${file}: the preimage of ${key} must be a 20-byte address or a 32-byte slot (${HEX_RULE}: 40 or 64 digits), got ${shown}`,
      );
    }
  }
  return fromMap(Object.entries(parsed as Record<string, string>));
}
