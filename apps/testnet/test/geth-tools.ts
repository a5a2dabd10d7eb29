import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

// geth's own `evm` and `ubtchain` binaries, beside the project root on machines that have them
// (../shared/tools/geth-evm/bin). Only the live cross-checks run them, gated by HAS_GETH_TOOLS;
// every other test reads the geth outputs vendored under test/data.
const toolPath = (name: string): string =>
  fileURLToPath(new URL(`../../../../shared/tools/geth-evm/bin/${name}`, import.meta.url));

export const GETH_EVM = toolPath("evm");
export const GETH_UBTCHAIN = toolPath("ubtchain");
export const HAS_GETH_TOOLS = existsSync(GETH_EVM) && existsSync(GETH_UBTCHAIN);
