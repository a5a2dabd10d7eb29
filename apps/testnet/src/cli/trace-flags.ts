import { TestnetError } from "../chain/testnet-error.js";
import type { OpcodeTraceOptions, TraceFormat } from "../trace/opcode-trace.js";

/** geth's `--trace` and its switches, as the commands that trace (`run`, `t8n`) take them. */
export interface TraceFlags {
  readonly trace?: boolean;
  readonly "trace.memory"?: boolean;
  readonly "trace.nostack"?: boolean;
  readonly "trace.returndata"?: boolean;
  /** `t8n` only (geth's blocktest has no call frames). */
  readonly "trace.callframes"?: boolean;
  /** `run` only (geth's t8n has no formats): json, md or markdown. */
  readonly "trace.format"?: string;
}

/** The logger's options the switches ask for. */
export function traceOptionsOf(flags: TraceFlags): OpcodeTraceOptions {
  return {
    memory: flags["trace.memory"] === true,
    noStack: flags["trace.nostack"] === true,
    returnData: flags["trace.returndata"] === true,
    callFrames: flags["trace.callframes"] === true,
    format: traceFormatOf(flags["trace.format"]),
  };
}

/**
 * geth's `--trace.format` names (blocktest: json, struct, md or markdown). Its struct logger is
 * not offered: it prints each SLOAD/SSTORE's storage map in Go's random map order, so two of
 * geth's own runs differ, and reads SLOAD's value from the state the step runs on.
 */
function traceFormatOf(name: string | undefined): TraceFormat {
  if (name === undefined || name === "json") return "json";
  if (name === "md" || name === "markdown") return "markdown";
  if (name === "struct") {
    throw new TestnetError(
      "INVALID_OPTION",
      "--trace.format struct is not offered (geth prints its storage maps in Go's random map order); use json or md",
    );
  }
  throw new TestnetError(
    "INVALID_OPTION",
    `--trace.format: unknown trace format "${name}" (json, md or markdown)`,
  );
}
