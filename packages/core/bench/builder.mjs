// `node bench/builder.mjs [--stems N] [--big] [--g G]` (after `pnpm --filter @bintrie/core build`):
// streaming builder vs BinaryTree insert + commit on N sorted one-value stems (default 1M), each
// scenario in its own Node process so peak RSS is that scenario's alone. --big adds the 10M-stem
// builder run (RSS sampled every 1M stems, to show it stays flat). Prints one JSON document.
import { execFileSync } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { makeStemSource } from "./builder-input.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : args[i + 1];
};
const MiB = 1024 * 1024;
const peakRssMiB = () => process.resourceUsage().maxRSS / 1024;

async function scenario(name, n, g) {
  const { StreamingBuilder, buildTree } = await import("../dist/builder/index.js");
  const { BinaryTree } = await import("../dist/index.js");
  const source = makeStemSource(n);
  const stem = new Uint8Array(31);
  const value = new Uint8Array(32);
  const rssSeries = [];
  let nodes = 0;
  let bytes = 0;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  let root;
  if (name === "builder") {
    // The sync API: addStem per stem, records counted and dropped.
    const builder = new StreamingBuilder({
      groupDepth: g,
      onNode: (node) => {
        nodes++;
        bytes += node.blob.length;
      },
    });
    for (let i = 0; i < n; i++) {
      source(i, stem, 0, value, 0);
      builder.addStem(stem, [value]);
      if ((i + 1) % 1_000_000 === 0) rssSeries.push(Math.round(process.memoryUsage.rss() / MiB));
    }
    root = builder.finish();
  } else if (name === "buildTree-entries") {
    // The async adapter over key/value entries (what sortEntries feeds it).
    function* entries() {
      for (let i = 0; i < n; i++) {
        const key = new Uint8Array(32);
        const v = new Uint8Array(32);
        source(i, key, 0, v, 0);
        yield { key, value: v };
      }
    }
    const result = await buildTree(
      entries(),
      {
        write(batch) {
          nodes += batch.length;
          for (const node of batch) bytes += node.blob.length;
        },
      },
      { groupDepth: g },
    );
    root = result.root;
  } else if (name === "tree") {
    const tree = new BinaryTree({ groupDepth: g });
    const key = new Uint8Array(32);
    for (let i = 0; i < n; i++) {
      source(i, key, 0, value, 0);
      tree.put(key, value);
    }
    const set = tree.commit();
    root = set.root;
    nodes = set.writes.length;
    for (const w of set.writes) bytes += w.blob.length;
  } else {
    throw new Error(`unknown scenario ${name}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  // On a shared machine wall time depends on the neighbours; CPU time much less so.
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    scenario: name,
    stems: n,
    groupDepth: g,
    seconds: Number(seconds.toFixed(2)),
    stemsPerSecond: Math.round(n / seconds),
    cpuSeconds: Number(cpuSeconds.toFixed(2)),
    stemsPerCpuSecond: Math.round(n / cpuSeconds),
    nodes,
    blobMiB: Number((bytes / MiB).toFixed(1)),
    peakRssMiB: Math.round(peakRssMiB()),
    ...(rssSeries.length > 0 ? { rssEveryMillionStemsMiB: rssSeries } : {}),
    root: Buffer.from(root).toString("hex"),
  };
}

if (args[0] === "--scenario") {
  const result = await scenario(args[1], Number(option("--stems")), Number(option("--g")));
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const n = Number(option("--stems", 1_000_000));
  const g = Number(option("--g", 5));
  const here = fileURLToPath(new URL(".", import.meta.url));
  const run = (name, stems, heapMB) => {
    process.stderr.write(`builder bench: ${name} ${stems} stems g=${g} … `);
    const t = performance.now();
    const out = execFileSync(
      process.execPath,
      [
        ...(heapMB ? [`--max-old-space-size=${heapMB}`] : []),
        "builder.mjs",
        "--scenario",
        name,
        "--stems",
        String(stems),
        "--g",
        String(g),
      ],
      { cwd: here, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    );
    process.stderr.write(`${((performance.now() - t) / 1000).toFixed(1)} s\n`);
    return JSON.parse(out.trim().split("\n").at(-1));
  };
  const rows = [run("builder", n), run("buildTree-entries", n), run("tree", n, 8192)];
  if (args.includes("--big")) rows.push(run("builder", 10 * n));
  const [builder, , tree] = rows;
  const doc = {
    date: new Date().toISOString(),
    machine: { cpu: os.cpus()[0]?.model, cores: os.cpus().length, load: os.loadavg() },
    node: process.version,
    rootsAgree: rows.every((r) => r.root === builder.root || r.stems !== n),
    builderSpeedupVsTree: Number((builder.stemsPerSecond / tree.stemsPerSecond).toFixed(2)),
    builderCpuSpeedupVsTree: Number(
      (builder.stemsPerCpuSecond / tree.stemsPerCpuSecond).toFixed(2),
    ),
    builderRssVsTree: Number((builder.peakRssMiB / tree.peakRssMiB).toFixed(3)),
    rows,
  };
  process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
}
