import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A path under the read-only /work/shared folder, relative to this file (geth tools only). */
export function sharedPath(relative: string): string {
  return fileURLToPath(new URL(`../../../../shared/${relative}`, import.meta.url));
}

/** A path under this package's vendored test data (test/data, see the PROVENANCE.md files). */
export function dataPath(relative: string): string {
  return fileURLToPath(new URL(`./data/${relative}`, import.meta.url));
}

export function readDataJson<T>(relative: string): T {
  return JSON.parse(readFileSync(dataPath(relative), "utf8")) as T;
}

/** geth's `evm` and `ubtchain` (../shared/tools/geth-evm/bin), when this machine has them. */
export const GETH_EVM = sharedPath("tools/geth-evm/bin/evm");
export const GETH_UBTCHAIN = sharedPath("tools/geth-evm/bin/ubtchain");
export const HAS_GETH_TOOLS = existsSync(GETH_EVM) && existsSync(GETH_UBTCHAIN);
