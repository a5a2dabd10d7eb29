import { stat } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import { assertKnownOptions } from "@bintrie/codec";
import { TestnetError } from "../chain/testnet-error.js";
import type { BlockchainTest } from "../fixtures/blockchain-test.js";
import { findFixtureFiles, readFixtureFile } from "../fixtures/load-fixtures.js";
import { compileTestFilter, matchesTestFilter } from "../fixtures/test-filter.js";
import { writeOutputFile } from "../io/output-files.js";
import type { ExecuteOptions } from "../runner/execute-chain.js";
import { type FillResult, fillBlockchainTest } from "./fill-blockchain-test.js";

export interface FillFilesOptions extends Omit<ExecuteOptions, "rebuild"> {
  /** Only tests whose `file :: name` matches this regular expression (as `run --filter`). */
  readonly filter?: string | RegExp;
  /** Called after each test. */
  readonly onResult?: (result: FillResult, file: string) => void;
}

const FILL_FILES_OPTION_KEYS: readonly (keyof FillFilesOptions)[] = [
  "scheme",
  "groupDepth",
  "filter",
  "onResult",
];

export interface FillSummary {
  readonly filled: number;
  readonly failed: number;
  /** Written files (one per input file that had at least one filled test). */
  readonly files: readonly string[];
}

/**
 * Fills every blockchain test under `inputs` into `outDir`, keeping each file's path relative
 * to the folder it was found in (a file given directly keeps its name).
 */
export async function fillFiles(
  inputs: readonly string[],
  outDir: string,
  options: FillFilesOptions = {},
): Promise<FillSummary> {
  assertKnownOptions(options, FILL_FILES_OPTION_KEYS, "fillFiles", TestnetError);
  let filled = 0;
  let failed = 0;
  const written: string[] = [];
  const filter = options.filter === undefined ? undefined : compileTestFilter(options.filter);
  for (const input of inputs) {
    const isFolder = (await stat(input)).isDirectory();
    for (const file of await findFixtureFiles([input])) {
      const out: Record<string, BlockchainTest> = {};
      for (const named of await readFixtureFile(file)) {
        if (!matchesTestFilter(filter, named.file, named.name)) continue;
        const sourceFile = isFolder ? relative(input, file) : basename(file);
        const result = await fillBlockchainTest(named, {
          scheme: options.scheme,
          groupDepth: options.groupDepth,
          sourceFile,
        });
        options.onResult?.(result, file);
        if (result.fixture === undefined) {
          failed++;
        } else {
          filled++;
          out[named.name] = result.fixture;
        }
      }
      if (Object.keys(out).length === 0) continue;
      const target = join(outDir, isFolder ? relative(input, file) : basename(file));
      await writeOutputFile(target, `${JSON.stringify(out, null, 2)}\n`, "--out");
      written.push(target);
    }
  }
  return { filled, failed, files: written };
}
