import { writeSync } from "node:fs";
import { constants } from "node:os";
import { linePrefix } from "./line-prefix.js";

/** Signals that end a command early: Ctrl-C, `kill`, a closed terminal. */
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

interface Registration {
  readonly command: string;
  readonly cleanup: () => void;
}

const registered = new Set<Registration>();

/**
 * Runs `cleanup` (synchronous: nothing after the signal may await) if SIGINT, SIGTERM or SIGHUP
 * comes before the returned function is called; then prints `bintrie COMMAND: interrupted by
 * SIGNAL` on stderr and exits with 128 + the signal's number (130 for SIGINT, 143 for SIGTERM,
 * 129 for SIGHUP), as a shell reports a process the signal killed. Writes in flight are cut
 * short as by a kill: every store write is one atomic batch, so the store stays at a committed
 * root. While nothing is registered the signals keep their default action.
 */
export function onInterrupt(command: string, cleanup: () => void): () => void {
  const registration = { command, cleanup };
  if (registered.size === 0) for (const signal of SIGNALS) process.on(signal, interrupted);
  registered.add(registration);
  return () => {
    if (!registered.delete(registration)) return;
    if (registered.size === 0) for (const signal of SIGNALS) process.off(signal, interrupted);
  };
}

function interrupted(signal: NodeJS.Signals): void {
  let command = "";
  for (const { command: name, cleanup } of registered) {
    command ||= name;
    try {
      cleanup();
    } catch {
      // Exiting anyway: a leftover is better than a hang or a second signal.
    }
  }
  try {
    writeSync(2, `${linePrefix(command)}: interrupted by ${signal}\n`);
  } catch {
    // stderr closed: exit quietly.
  }
  process.exit(128 + (constants.signals[signal] ?? 0));
}
