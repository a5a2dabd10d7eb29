// Measures `bintrie build` of N random JSON lines (default 1,000,000) into a fresh LevelDB and
// into a store that already holds a tree, plus `verify` and `nodes` of the result: wall time and
// peak RSS of each child process. Usage: node bench/build-1m.mjs [N]  (run `pnpm build` first).
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));
const count = Number(process.argv[2] ?? 1_000_000);

/** Runs the CLI under /usr/bin/time -v (if present) and reports wall time and peak RSS. */
function measure(args, { stdout = "pipe" } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn("/usr/bin/time", ["-v", process.execPath, BIN, ...args], {
      stdio: ["ignore", stdout, "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout?.setEncoding("utf8").on("data", (s) => {
      out += s;
    });
    child.stderr.setEncoding("utf8").on("data", (s) => {
      err += s;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(err);
      if (code !== 0) reject(new Error(`bintrie ${args.join(" ")} exited ${code}: ${err}`));
      else resolve({ seconds, peakMiB: rss ? Number(rss[1]) / 1024 : Number.NaN, out });
    });
  });
}

/** Writes `n` lines of random 32-byte keys and values (xorshift, fixed seed). */
async function writeInput(file, n, seed) {
  let x = seed;
  const word = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0).toString(16).padStart(8, "0");
  };
  const hex = () => `0x${word()}${word()}${word()}${word()}${word()}${word()}${word()}${word()}`;
  const out = createWriteStream(file);
  for (let i = 0; i < n; i++) {
    if (!out.write(`{"key":"${hex()}","value":"${hex()}"}\n`)) {
      await new Promise((r) => out.once("drain", r));
    }
  }
  await new Promise((r) => out.end(r));
}

const dir = await mkdtemp(join(tmpdir(), "bintrie-bench-"));
try {
  const input = join(dir, "entries.jsonl");
  const more = join(dir, "more.jsonl");
  await writeInput(input, count, 0x12345678);
  await writeInput(more, Math.max(1, Math.floor(count / 10)), 0x0badf00d);
  const db = join(dir, "db");
  const report = (name, r, extra = "") =>
    console.log(
      `${name.padEnd(42)} ${r.seconds.toFixed(2).padStart(7)} s  peak RSS ${r.peakMiB.toFixed(0).padStart(5)} MiB  ${extra}`,
    );
  console.log(`input: ${count} lines, ${((await stat(input)).size / 2 ** 20).toFixed(0)} MiB`);
  const built = await measure(["build", input, "--db", db, "--json"]);
  report(`build ${count} (empty store)`, built, built.out.trim());
  const added = await measure(["build", more, "--db", db, "--json"]);
  report(`build +${Math.floor(count / 10)} (store with a tree)`, added, added.out.trim());
  const verify = await measure(["verify", "--db", db, "--json"]);
  const v = JSON.parse(verify.out);
  report("verify", verify, `ok=${v.ok} nodes=${v.nodes.total} garbage=${v.garbage}`);
  const nodes = await measure(["nodes", "--db", db], { stdout: "ignore" });
  report("nodes > /dev/null", nodes);
  const memory = await measure(["build", input, "--store", "memory"]);
  report(`build ${count} --store memory`, memory);
} finally {
  await rm(dir, { recursive: true, force: true });
}
