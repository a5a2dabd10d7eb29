// Row: go-ethereum's BinaryTrie on the shared workload (`geth-bintrie speed N`, ../shared/tools).
// Prints {skipped: "..."} where the tool is not present (a clone outside this machine).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const n = Number(process.argv[2] ?? 1_000_000);
const tool = fileURLToPath(
  new URL("../../../shared/tools/geth-bintrie/geth-bintrie", import.meta.url),
);
if (!existsSync(tool)) {
  console.log(JSON.stringify({ row: "geth_speed", n, skipped: `${tool} not found` }));
} else {
  const out = execFileSync(tool, ["speed", String(n)], { encoding: "utf8" });
  const res = JSON.parse(out.trim().split("\n").at(-1));
  res.row = "geth_speed";
  res.root = `0x${res.root}`;
  res.root_after = `0x${res.root_after}`;
  res.block_ms = res.update_1000_root_ms + res.update_commit_ms;
  console.log(JSON.stringify(res));
}
