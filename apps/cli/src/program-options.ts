import { type Command, Option } from "commander";
import { HEX_RULE } from "./input-rules.js";
import { parseGroupDepth, SCHEME_CHOICES } from "./option-parsers.js";

const STORE_HELP = "LevelDB directory of the tree";

/** A paragraph written over several source lines; commander wraps it to the terminal. */
export function para(strings: TemplateStringsArray, ...values: unknown[]): string {
  return String.raw({ raw: strings }, ...values).replace(/\s*\n\s*/g, " ");
}

export function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}`;
}

/** The input rules every command's help repeats. */
export const INPUT_RULES_HELP = `\nInput: hex is ${HEX_RULE}; a UTF-8 byte order mark at the start of a file is ignored.`;

/**
 * --db DIR and --store level|memory, on every command that opens a store. Commands that only
 * read refuse --store memory (a new in-memory store is empty), so their help says so.
 */
export function withStore(command: Command, access: "read" | "write"): Command {
  return command
    .option("--db <DIR>", STORE_HELP)
    .addOption(
      new Option(
        "--store <KIND>",
        access === "write"
          ? "store kind: level (at --db DIR) or memory (throwaway)"
          : "store kind: level (at --db DIR); memory is refused (a new one is empty)",
      )
        .choices(["level", "memory"])
        .default(undefined, "level"),
    );
}

export function schemeOption(): Option {
  return new Option(
    "--scheme <S>",
    "key derivation and node hash scheme (default: sha256-be, geth master)",
  ).choices(SCHEME_CHOICES);
}

export function groupDepthOption(): Option {
  return new Option(
    "--group-depth <G>",
    "internal levels per stored group blob, 0..8 (0 = flat 65-byte nodes; default 5, as geth)",
  ).argParser(parseGroupDepth);
}
