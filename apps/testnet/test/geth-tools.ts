import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

// geth's own `evm` binary, beside the project root on machines that have it
// (../shared/tools/geth-evm/bin). Only the live cross-checks run it, gated by HAS_GETH_TOOLS;
// every other test reads the geth outputs vendored under test/data.
export const GETH_EVM = fileURLToPath(
  new URL("../../../../shared/tools/geth-evm/bin/evm", import.meta.url),
);
export const HAS_GETH_TOOLS = existsSync(GETH_EVM);
