// Row: `bintrie build` of the N-line shared-workload JSON file into LevelDB, over the input
// floor (read the file + JSON.parse every line + decode both hex fields; median of 3).
// Usage: node rows/cli-build.mjs N [RUNS] (RUNS builds, their median; default 1). CLI_BUILD_BIN
// points at another build of apps/cli/dist/main.js (A/B against an older checkout).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const n = Number(process.argv[2] ?? 1_000_000);
const runs = Number(process.argv[3] ?? 1);
const here = fileURLToPath(new URL(".", import.meta.url));
const file = fileURLToPath(new URL(`../../.bench-out/build-input-${n}.jsonl`, import.meta.url));
if (!existsSync(file)) {
  mkdirSync(dirname(file), { recursive: true });
  execFileSync(process.execPath, [join(here, "make-build-input.mjs"), String(n), file]);
}
const cli =
  process.env.CLI_BUILD_BIN ??
  fileURLToPath(new URL("../../apps/cli/dist/main.js", import.meta.url));
const res = { row: "cli_build", n, node: process.version };

const floorOnce = () => {
  const t = performance.now();
  const text = readFileSync(file);
  let start = 0;
  let sink = 0;
  for (;;) {
    const end = text.indexOf(0x0a, start);
    if (end < 0) break;
    const entry = JSON.parse(text.toString("utf8", start, end));
    sink ^= Buffer.from(entry.key.slice(2), "hex")[0] ^ Buffer.from(entry.value.slice(2), "hex")[0];
    start = end + 1;
  }
  return { ms: performance.now() - t, sink };
};
const floors = [floorOnce().ms, floorOnce().ms, floorOnce().ms].sort((a, b) => a - b);
res.input_floor_ms = floors[1];

const buildOnce = () => {
  const dir = mkdtempSync(join(tmpdir(), "bench-cli-build-"));
  try {
    const t = performance.now();
    const out = execFileSync(
      process.execPath,
      [cli, "build", file, "--db", join(dir, "db"), "--json"],
      {
        encoding: "utf8",
        maxBuffer: 1 << 24,
      },
    );
    const ms = performance.now() - t;
    const doc = JSON.parse(out.trim().split("\n").at(-1));
    res.root = doc.root;
    res.nodes = doc.nodes;
    res.entries = doc.entries;
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
const builds = Array.from({ length: runs }, buildOnce);
res.build_runs_ms = builds.map(Math.round);
res.build_ms = builds.sort((a, b) => a - b)[Math.floor((runs - 1) / 2)];
res.build_over_input_floor = res.build_ms / res.input_floor_ms;
console.log(JSON.stringify(res));
