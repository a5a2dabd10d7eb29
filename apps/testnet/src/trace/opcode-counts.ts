import { gethOpcodeName } from "./geth-opcode-table.js";
import type { TraceSink } from "./opcode-trace.js";

/**
 * geth's opcode counter (`evm t8n --opcode.count`, eth/tracers/native/opcode_counter.go): how
 * many times each opcode reached the tracer's OnOpcode — every instruction the JSON trace logs
 * on its own line, the one that fails before it runs included, not the repeat of one that fails
 * as it runs (OnFault) — across the whole transition, the system calls' code included.
 */
export class OpcodeCounts {
  readonly #counts = new Array<number>(256).fill(0);

  count(op: number): void {
    this.#counts[op]!++;
  }

  /** geth's file: the counts by opcode name, names in Go's order, indented by one space. */
  toJson(): string {
    const named: [string, number][] = [];
    for (let op = 0; op < 256; op++) {
      if (this.#counts[op]! > 0) named.push([gethOpcodeName(op), this.#counts[op]!]);
    }
    // Go sorts a map's keys bytewise (the names are ASCII).
    named.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (named.length === 0) return "{}";
    return `{\n${named.map(([name, n]) => ` ${JSON.stringify(name)}: ${n}`).join(",\n")}\n}`;
  }
}

/** A trace sink that keeps nothing: a logger run only for its opcode counts. */
export const DISCARDING_SINK: TraceSink = {
  begin(): void {},
  line(): void {},
  end(): void {},
};
