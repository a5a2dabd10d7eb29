// Regenerates the vendored test data in testdata/ from the shared ground-truth folder
// (default ../shared next to the repository; or the folder given as the first argument).
// Tests never read ../shared: they read these subsets. See testdata/*/PROVENANCE.md.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const shared = process.argv[2] ?? join(repo, "..", "shared");
const out = join(repo, "testdata");

const readJson = (path) => JSON.parse(readFileSync(join(shared, path), "utf8"));
const write = (path, text) => {
  mkdirSync(join(out, path, ".."), { recursive: true });
  writeFileSync(join(out, path), text);
};
const writeJson = (path, value) => write(path, `${JSON.stringify(value, null, 1)}\n`);

// geth node sets: every case; the large cases keep only the group depths a test names.
const KEEP_DEPTHS = {
  LargeNumberOfEntries: ["3", "5"],
  CommitSkipCleanSubtrees200: ["1"],
  RoundTripPersistence50: ["0", "5"],
};
const nodesets = readJson("vectors/geth-nodesets.json");
for (const c of nodesets.cases) {
  const keep = KEEP_DEPTHS[c.name];
  if (keep === undefined) continue;
  c.nodesets = Object.fromEntries(Object.entries(c.nodesets).filter(([g]) => keep.includes(g)));
}
writeJson("geth/geth-nodesets.json", nodesets);

// The genesis of go-ethereum's TestBinaryGenesisCommit, whole.
write(
  "geth/TestBinaryGenesisCommit.genesis.json",
  readFileSync(join(shared, "fixtures/eip7864-geth/TestBinaryGenesisCommit.genesis.json"), "utf8"),
);

// geth-bintrie.md §6 (test vectors), the only part tests read, up to the §7 heading they stop at.
const spec = readFileSync(join(shared, "spec/geth-bintrie.md"), "utf8");
const from = spec.indexOf("## 6. Test vectors");
const to = spec.indexOf("## 7. Benchmarks");
write(
  "geth/geth-bintrie-section-6.md",
  `${spec.slice(from, to)}## 7. Benchmarks\n\n(not vendored: the rest of the document is in shared/spec/geth-bintrie.md)\n`,
);

// Reference and ethereumjs vectors, whole (every section is read by some test).
for (const name of ["eip7864-reference.json", "ethereumjs-vectors.json"]) {
  write(`reference/${name}`, readFileSync(join(shared, "vectors", name), "utf8"));
}

// Blockchain tests: only `pre` and the genesis header's stateRoot (the MPT root of `pre`), one
// case per distinct pre state; all small pre states and a few with the system contracts.
const LARGE_KEPT = new Set([
  "eest-tests-v5.4.0/cancun/eip1153_tstore/test_tload_after_sstore.json",
  "eest-tests-v5.4.0/prague/eip7702_set_code_tx/test_eip_7702.json",
  "eest-tests-v5.4.0/osaka/eip7939_count_leading_zeros/test_clz_mainnet.json",
  "eest-tests-v5.4.0/shanghai/eip4895_withdrawals/test_use_value_in_contract.json",
  "eest-tests-v5.4.0/static/state_tests/stExample/add11.json",
]);
const SMALL = 3000;
const blockchainRoot = join(shared, "fixtures/blockchain");
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith(".json")) files.push(path);
  }
};
walk(blockchainRoot);
const seen = new Set();
const cases = [];
for (const path of files) {
  const file = relative(blockchainRoot, path);
  for (const [name, test] of Object.entries(JSON.parse(readFileSync(path, "utf8")))) {
    const stateRoot = test.genesisBlockHeader.stateRoot;
    if (seen.has(stateRoot)) continue;
    const small = JSON.stringify(test.pre).length < SMALL;
    if (!small && !LARGE_KEPT.has(file)) continue;
    seen.add(stateRoot);
    cases.push({ file, name, stateRoot, pre: test.pre });
  }
}
writeJson("blockchain/pre-states.json", { schema: "bintrie-pre-states/1", cases });
console.log(`testdata/: ${nodesets.cases.length} node-set cases, ${cases.length} pre states`);
