import { bytesToHex, isEmptyRoot } from "@bintrie/core";
import { CliError } from "../cli-error.js";
import { GroupHasher } from "../group-hasher.js";
import { printLine } from "../line-output.js";
import { openStore } from "../open-store.js";
import { Progress } from "../progress.js";
import { readRootRecord } from "../root-record.js";
import { stemHashBatch } from "../stem-hasher.js";
import { type StoreFlags, storeTarget } from "../store-target.js";
import { storedNodes } from "../stored-nodes.js";
import { type WalkProblem, walkStoredTree } from "../stored-tree-walk.js";

export interface VerifyFlags extends StoreFlags {
  readonly strict?: boolean;
  readonly json?: boolean;
}

/** What `verify` found. */
export interface VerifyReport {
  readonly root: Uint8Array;
  readonly nodes: { stem: number; group: number; internal: number };
  readonly values: number;
  readonly bytes: number;
  readonly garbage: number;
  readonly problems: readonly WalkProblem[];
}

/** Problems printed on stderr one per line; the rest are counted. */
const PROBLEMS_SHOWN = 20;

/**
 * `bintrie verify`: walks the latest committed root; every reachable blob must exist, decode
 * and hash to what its parent stores (exit 1 otherwise). Stored nodes no root reaches are
 * garbage: a warning, or an error with --strict.
 */
export async function runVerify(flags: VerifyFlags): Promise<void> {
  const opened = await openStore(storeTarget(flags, { readOnly: true }), { create: false });
  let report: VerifyReport;
  let scheme: string | null = null;
  let groupDepth: number | null = null;
  try {
    const record = await readRootRecord(opened.store);
    scheme = record?.scheme ?? null;
    groupDepth = record?.groupDepth ?? null;
    const root = record?.root ?? new Uint8Array(32);
    const nodes = { stem: 0, group: 0, internal: 0 };
    let values = 0;
    let bytes = 0;
    // Reachable nodes that are stored (fine or not): every stored node beyond them is garbage.
    let reachedStored = 0;
    const problems: WalkProblem[] = [];
    // Phase 1 counts the stored nodes (keys only, no hashing): the total of phase 2's walk,
    // which reaches at most that many, and the garbage count.
    const counting = new Progress("1/2 counting stored nodes", undefined, " nodes");
    let stored = 0;
    for await (const _ of storedNodes(opened.store)) counting.update(++stored);
    counting.done();
    const progress = new Progress("2/2 walking and hashing from the root", stored, " nodes");
    if (record !== undefined && !isEmptyRoot(root)) {
      const core = await import("@bintrie/core");
      const { hashFunctionOfScheme } = await import("@bintrie/core/embedding");
      const { hashInternal } = await import("@bintrie/core/hash");
      const hasher = core.getHasher(hashFunctionOfScheme(record.scheme));
      await walkStoredTree(opened.store, {
        root,
        groupDepth: record.groupDepth,
        hashStems: stemHashBatch(hasher, record.scheme),
        groupHasher: new GroupHasher(hasher),
        hashPair: (left, right) => hashInternal(hasher, left, right),
        onNode({ blob, node }) {
          reachedStored++;
          bytes += blob.length;
          if (node.kind === "stem") {
            nodes.stem++;
            values += node.count;
          } else if (node.kind === "group") {
            nodes.group++;
          } else {
            nodes.internal++;
          }
          progress.update(reachedStored);
        },
        onProblem(problem) {
          if (problem.code !== "MISSING_NODE") reachedStored++;
          problems.push(problem);
        },
      });
    }
    const garbage = stored - reachedStored;
    progress.update(reachedStored);
    progress.done();
    report = { root, nodes, values, bytes, garbage, problems };
  } finally {
    await opened.close();
  }
  const total = report.nodes.stem + report.nodes.group + report.nodes.internal;
  const ok = report.problems.length === 0 && !(flags.strict && report.garbage > 0);
  if (flags.json) {
    printLine(
      JSON.stringify({
        ok,
        root: bytesToHex(report.root),
        scheme,
        groupDepth,
        nodes: { total, ...report.nodes },
        values: report.values,
        bytes: report.bytes,
        garbage: report.garbage,
        problems: report.problems.map((p) => ({
          code: p.code,
          path: bytesToHex(p.path),
          depth: p.depth,
          message: p.message,
        })),
      }),
    );
  } else {
    printLine(`root      ${bytesToHex(report.root)}`);
    if (scheme !== null) printLine(`scheme    ${scheme}, group depth ${groupDepth}`);
    printLine(
      `nodes     ${total} reachable (${report.nodes.stem} stems, ${report.nodes.group} groups, ${report.nodes.internal} flat internal), ${report.bytes} bytes`,
    );
    printLine(`values    ${report.values}`);
    printLine(`garbage   ${report.garbage} stored nodes not reachable from the root`);
    printLine(`status    ${ok ? "ok" : "FAILED"}`);
  }
  for (const problem of report.problems.slice(0, PROBLEMS_SHOWN)) {
    process.stderr.write(`bintrie verify: ${problem.code} at ${problem.message}\n`);
  }
  if (report.problems.length > PROBLEMS_SHOWN) {
    process.stderr.write(
      `bintrie verify: ... and ${report.problems.length - PROBLEMS_SHOWN} more problems\n`,
    );
  }
  // With --strict, garbage is the failure itself: its one line comes below, no warning first.
  if (report.garbage > 0 && report.problems.length === 0 && !flags.strict) {
    process.stderr.write(
      `bintrie verify: warning: ${report.garbage} stored nodes are not reachable from the root (garbage, e.g. left by an interrupted run); --strict makes this an error\n`,
    );
  }
  if (report.problems.length > 0) {
    const n = report.problems.length;
    throw new CliError(
      "VERIFY_FAILED",
      `verification failed: ${n} reachable node${n === 1 ? " is" : "s are"} missing, undecodable or wrong`,
    );
  }
  if (!ok) {
    throw new CliError(
      "VERIFY_FAILED",
      `verification failed (--strict): ${report.garbage} unreachable stored nodes`,
    );
  }
}
