import { CliError } from "./cli-error.js";

/** Which store a command works on: a LevelDB directory, or a throwaway in-memory store. */
export type StoreTarget =
  | { readonly kind: "level"; readonly dir: string }
  | { readonly kind: "memory" };

/** The store flags every store command takes. */
export interface StoreFlags {
  readonly db?: string;
  readonly store?: string;
}

export interface StoreTargetOptions {
  /** The command only reads the store: a new in-memory store would be empty, so it is refused. */
  readonly readOnly?: boolean;
}

/** Resolves `--db DIR` / `--store memory` (exactly one of them). */
export function storeTarget(flags: StoreFlags, options: StoreTargetOptions = {}): StoreTarget {
  const kind = flags.store ?? "level";
  if (kind === "memory" && options.readOnly === true) {
    throw new CliError(
      "BAD_USAGE",
      "--store memory: this command only reads a store, and a new in-memory store is empty; give --db DIR",
    );
  }
  if (kind === "memory") {
    if (flags.db !== undefined) {
      throw new CliError("BAD_USAGE", "use either --db DIR or --store memory, not both");
    }
    return { kind: "memory" };
  }
  if (kind !== "level") {
    throw new CliError("BAD_USAGE", `--store must be 'level' or 'memory', got '${kind}'`);
  }
  if (flags.db === undefined || flags.db === "") {
    throw new CliError("BAD_USAGE", "missing --db DIR (or --store memory for a throwaway store)");
  }
  return { kind: "level", dir: flags.db };
}
