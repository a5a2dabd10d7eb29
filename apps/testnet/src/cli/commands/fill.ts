import type { KeyScheme } from "@bintrie/core";
import { TestnetError } from "../../chain/testnet-error.js";
import { fillFiles } from "../../fill/fill-files.js";
import { fillUbtChainFile, readUbtChainDescription } from "../../fill/fill-ubt-chain-file.js";
import { findFixtureFiles } from "../../fixtures/load-fixtures.js";
import { prepareOutputDirectory } from "../../io/output-files.js";
import type { CliIO } from "../cli-io.js";
import { EXIT_FAILURE, EXIT_OK, type ExitCode } from "../exit-codes.js";

export interface FillFlags {
  readonly out: string;
  readonly filter?: string;
  readonly scheme?: string;
}

/**
 * `fill`: re-executes fixtures on binary-tree state and writes binary-root fixtures; like `run`,
 * a filter that matches nothing is a usage error.
 */
export async function fillTests(
  inputs: readonly string[],
  flags: FillFlags,
  io: CliIO,
): Promise<ExitCode> {
  await findFixtureFiles(inputs); // every input exists (a coded error names the one that does not)
  await prepareOutputDirectory(flags.out, "--out");
  // A UBT chain description (genesis + transactions per block) is built by geth's chain-maker
  // rules (fillUbtChain); everything else is a fixture to re-fill.
  const chains: string[] = [];
  for (const input of inputs) {
    const description = input.endsWith(".json") ? await readUbtChainDescription(input) : undefined;
    if (description === undefined) continue;
    const filled = await fillUbtChainFile(input, description, flags.out);
    io.stdout.write(
      `FILLED ${input} :: ${filled.name}  [${filled.fixture.network}]  final ${filled.stateRoots.at(-1)}\nwrote ${filled.file}\n`,
    );
    chains.push(input);
  }
  const fixtures = inputs.filter((i) => !chains.includes(i));
  if (fixtures.length === 0) return EXIT_OK;
  const summary = await fillFiles(fixtures, flags.out, {
    filter: flags.filter,
    scheme: flags.scheme as KeyScheme | undefined,
    onResult: (result, file) => {
      if (result.fixture !== undefined) {
        const roots = result.fixture._bintrie!;
        io.stdout.write(
          `FILLED ${file} :: ${result.name}  genesis ${roots.genesisRoot}  final ${roots.blockRoots.at(-1) ?? roots.genesisRoot}\n`,
        );
      } else {
        io.stdout.write(`FAILED ${file} :: ${result.name}\n`);
        for (const f of result.failures) io.stdout.write(`    ${f}\n`);
      }
    },
  });
  if (summary.filled + summary.failed === 0) {
    throw new TestnetError(
      "NO_MATCHING_TESTS",
      flags.filter === undefined
        ? `no blockchain tests under ${inputs.join(", ")}`
        : `--filter ${JSON.stringify(flags.filter)} matches no test under ${inputs.join(", ")} (it is a regular expression over "file :: name")`,
    );
  }
  for (const file of summary.files) io.stdout.write(`wrote ${file}\n`);
  io.stdout.write(`${summary.filled} filled, ${summary.failed} failed\n`);
  return summary.failed > 0 ? EXIT_FAILURE : EXIT_OK;
}
