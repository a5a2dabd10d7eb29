import type { OpcodeTraceOptions } from "../trace/opcode-trace.js";

/** geth's `--trace` and its switches, as the commands that trace (`run`, `t8n`) take them. */
export interface TraceFlags {
  readonly trace?: boolean;
  readonly "trace.memory"?: boolean;
  readonly "trace.nostack"?: boolean;
  readonly "trace.returndata"?: boolean;
  /** `t8n` only (geth's blocktest has no call frames). */
  readonly "trace.callframes"?: boolean;
}

/** The logger's options the switches ask for. */
export function traceOptionsOf(flags: TraceFlags): OpcodeTraceOptions {
  return {
    memory: flags["trace.memory"] === true,
    noStack: flags["trace.nostack"] === true,
    returnData: flags["trace.returndata"] === true,
    callFrames: flags["trace.callframes"] === true,
  };
}
