// Builds the binary-tree genesis state of a geth-style genesis file into LevelDB, closes the
// database, reopens it and reads every account back.
// Usage: node main.mjs [GENESIS_JSON] [--db DIR] [--check]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyGenesisAlloc, BinaryTree, openTree } from "@bintrie/core";
import { openLevelStore } from "@bintrie/store-level";

const args = process.argv.slice(2);
const check = args.includes("--check");
const dbFlag = args.indexOf("--db");
const file =
  args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--db") ??
  fileURLToPath(new URL("./genesis.json", import.meta.url));
const dir = dbFlag >= 0 ? args[dbFlag + 1] : mkdtempSync(join(tmpdir(), "bintrie-example-"));
const hex = (b) => `0x${Buffer.from(b).toString("hex")}`;
const bytes = (h) => Uint8Array.from(Buffer.from(h.replace(/^0x/, ""), "hex"));

const genesis = JSON.parse(readFileSync(file, "utf8"));

// 1. Build and commit: one atomic LevelDB batch holds every node and the root record.
const store = await openLevelStore(dir);
const tree = new BinaryTree({ store, groupDepth: 5 });
const summary = applyGenesisAlloc(tree, genesis.alloc);
const root = await tree.persist();
await store.close();
console.log(`built ${summary.accounts} accounts, ${summary.storageSlots} slots into ${dir}`);
console.log(`genesis root ${hex(root)}`);

// 2. Reopen: the latest committed root; nodes load from disk as they are needed.
const reopenedStore = await openLevelStore(dir);
const reopened = await openTree(reopenedStore);
let mismatches = 0;
for (const [address, account] of Object.entries(genesis.alloc)) {
  const addr = bytes(address);
  // Load the account stem (and the code chunks' stems) before the synchronous reads.
  await reopened.load([reopened.keys.basicDataKey(addr)]);
  const read = reopened.getAccount(addr);
  const balance = BigInt(account.balance ?? 0);
  if (read?.balance !== balance) mismatches++;
  for (const [slot, value] of Object.entries(account.storage ?? {})) {
    const [stored] = await reopened.getMany([reopened.keys.storageSlotKey(addr, BigInt(slot))]);
    if (BigInt(value) !== 0n && (stored === undefined || BigInt(hex(stored)) !== BigInt(value)))
      mismatches++;
  }
  console.log(
    `${address}: balance ${read?.balance} nonce ${read?.nonce} code ${read?.codeSize} bytes`,
  );
}
console.log(`reopened root ${hex(reopened.hash())}, ${mismatches} mismatches`);
await reopenedStore.close();
if (dbFlag < 0) rmSync(dir, { recursive: true, force: true });

if (check) {
  const expected = genesis.expectedStateRoot;
  if (
    mismatches !== 0 ||
    hex(reopened.hash()) !== hex(root) ||
    (expected && expected !== hex(root))
  ) {
    console.error("example check failed");
    process.exit(1);
  }
  console.log("example check ok");
}
