// Builds the binary-tree genesis state of a geth-style genesis file and prints its root.
// Usage: node scripts/demo-genesis-root.mjs [GENESIS_JSON]
// Default input: go-ethereum's TestBinaryGenesisCommit genesis (vendored: testdata/geth/).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { applyGenesisAlloc, BinaryTree } from "../packages/core/dist/index.js";

const defaultGenesis = fileURLToPath(
  new URL("../testdata/geth/TestBinaryGenesisCommit.genesis.json", import.meta.url),
);
const file = process.argv[2] ?? defaultGenesis;
const genesis = JSON.parse(readFileSync(file, "utf8"));
const tree = new BinaryTree({ groupDepth: 5 });
const summary = applyGenesisAlloc(tree, genesis.alloc ?? {});
const root = `0x${Buffer.from(tree.hash()).toString("hex")}`;
const nodes = tree.commit().writes.length;
console.log(`genesis: ${file}`);
console.log(
  `accounts: ${summary.accounts}, storage slots: ${summary.storageSlots}, nodes (g=5): ${nodes}`,
);
console.log(`binary-tree state root: ${root}`);
if (genesis.expectedStateRoot !== undefined) {
  const ok = genesis.expectedStateRoot === root;
  console.log(
    `go-ethereum expects:    ${genesis.expectedStateRoot} ${ok ? "(match)" : "(MISMATCH)"}`,
  );
  if (!ok) process.exitCode = 1;
}
