// Costs of the client features on the shared workload (key_i = sha256(be64(i)), value_i =
// sha256(key_i); the block = the workload's 1000 updates): checkpoint + revert, copy, ordered
// iteration (in memory and lazily from a MemoryStore), and the block's witness (size, build,
// open, replay). Build first: pnpm --filter @bintrie/codec --filter @bintrie/core build
// Usage: node --max-old-space-size=8192 bench/client.mjs [--keys 1000000] [--updates 1000] [--runs 5]
// Prints one JSON document on stdout.
import { createHash } from "node:crypto";
import {
  BinaryTree,
  decodeWitness,
  encodeWitness,
  MemoryStore,
  openTree,
  openWitness,
} from "../dist/index.js";

const args = new Map();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i], process.argv[i + 1]);
const n = Number(args.get("--keys") ?? 1_000_000);
const u = Number(args.get("--updates") ?? 1000);
const runs = Number(args.get("--runs") ?? 5);

const sha = (b) => new Uint8Array(createHash("sha256").update(b).digest());
const keyBytes = new Uint8Array(n * 32);
const valueBytes = new Uint8Array(n * 32);
for (let i = 0; i < n; i++) {
  const be = new Uint8Array(8);
  new DataView(be.buffer).setBigUint64(0, BigInt(i));
  const k = sha(be);
  keyBytes.set(k, i * 32);
  valueBytes.set(sha(k), i * 32);
}
const key = (i) => keyBytes.subarray(i * 32, i * 32 + 32);
const value = (i) => valueBytes.subarray(i * 32, i * 32 + 32);
const updates = [];
for (let k = 0; k < u; k++) {
  const kb = new Uint8Array(4);
  new DataView(kb.buffer).setUint32(0, k);
  const r = sha(Uint8Array.from([0x75, 0x70, 0x64, ...kb]));
  const j = new DataView(r.buffer).getUint32(0) % n;
  updates.push([key(j), sha(Uint8Array.from([...value(j), ...kb]))]);
}
const hex = (b) => Buffer.from(b).toString("hex");
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const time = (fn) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};

const res = { keys: n, updates: u, runs, node: process.version };
let t = performance.now();
const store = new MemoryStore();
const tree = new BinaryTree({ store });
for (let i = 0; i < n; i++) tree.put(key(i), value(i));
tree.hash();
res.build_ms = performance.now() - t;
t = performance.now();
await tree.persist();
res.persist_ms = performance.now() - t;
let storedNodes = 0;
for await (const [k] of store.entries()) if (k[0] === 0x76 && k[1] === 0x41) storedNodes++;
res.stored_nodes = storedNodes;

// The block with value variant r (every run really changes every updated leaf).
const variants = new Map();
const blockOf = (r) => {
  if (!variants.has(r))
    variants.set(
      r,
      updates.map(([k, v]) => [k, sha(Uint8Array.from([...v, r]))]),
    );
  return variants.get(r);
};
const applyBlock = (target, r) => {
  for (const [k, v] of blockOf(r)) target.put(k, v);
};
for (let r = 0; r < 4 * runs + 4; r++) blockOf(r);

// Checkpoint + the block's writes + hash + revert (the root must come back), against the block
// + hash with no checkpoint open (on the tree itself, a new value variant each run).
const plain = [];
const inCheckpoint = [];
const revert = [];
for (let r = 0; r < runs; r++) {
  plain.push(
    time(() => {
      applyBlock(tree, r);
      tree.hash();
    }),
  );
  const before = hex(tree.hash());
  inCheckpoint.push(
    time(() => {
      tree.checkpoint();
      applyBlock(tree, runs + r);
      tree.hash();
    }),
  );
  revert.push(time(() => tree.revertCheckpoint()));
  if (hex(tree.hash()) !== before) throw new Error("revert did not restore the root");
}
res.block_hash_ms_no_checkpoint = median(plain);
res.block_hash_ms_in_checkpoint = median(inCheckpoint);
res.revert_ms = median(revert);
res.checkpoint_block_revert_ms = median(inCheckpoint.map((x, i) => x + revert[i]));
res.checkpoint_overhead_ratio = res.block_hash_ms_in_checkpoint / res.block_hash_ms_no_checkpoint;

// copy(): O(chunks); the first writes on either side clone the chunks they touch.
const copyMs = [];
const firstBlockOnCopy = [];
const secondBlockOnCopy = [];
for (let r = 0; r < runs; r++) {
  let c;
  copyMs.push(
    time(() => {
      c = tree.copy();
    }),
  );
  firstBlockOnCopy.push(
    time(() => {
      applyBlock(c, 2 * runs + r);
      c.hash();
    }),
  );
  secondBlockOnCopy.push(
    time(() => {
      applyBlock(c, 3 * runs + r);
      c.hash();
    }),
  );
}
res.copy_ms = median(copyMs);
res.first_block_on_copy_ms = median(firstBlockOnCopy);
res.second_block_on_copy_ms = median(secondBlockOnCopy);
res.copy_on_write_cost_ms = res.first_block_on_copy_ms - res.second_block_on_copy_ms;

// Iteration: in memory, then lazily from the store (first 100k entries), under a memory bound.
t = performance.now();
let count = 0;
for (const _ of tree.entriesSync()) count++;
res.entries_sync_ms = performance.now() - t;
res.entries_sync_per_s = count / (res.entries_sync_ms / 1000);
const limit = Math.min(n, 100_000);
for (const maxNodes of [undefined, 50_000]) {
  const lazy = await openTree(store, maxNodes === undefined ? {} : { maxNodes });
  t = performance.now();
  let seen = 0;
  for await (const _ of lazy.entries()) if (++seen >= limit) break;
  const ms = performance.now() - t;
  const label = maxNodes === undefined ? "unbounded" : `bound_${maxNodes}`;
  res[`entries_lazy_${label}_per_s`] = seen / (ms / 1000);
  res[`entries_lazy_${label}_peak_nodes`] = lazy.stats().internal + lazy.stats().stem;
}

// Witness of the block on the committed tree (in memory), on the tree itself (no copy, so no
// copy-on-write cost): record, encode, open, replay; against the same block without recording.
tree.commit();
const record = [];
const witnesses = [];
const withoutWitness = [];
for (let r = 0; r < runs; r++) {
  withoutWitness.push(
    time(() => {
      applyBlock(tree, 4 * runs + 2 * r);
      tree.hash();
    }),
  );
  tree.commit();
  let w;
  record.push(
    time(() => {
      tree.beginWitness();
      applyBlock(tree, 4 * runs + 2 * r + 1);
      w = tree.endWitness();
      w.post = hex(tree.hash());
      w.variant = 4 * runs + 2 * r + 1;
    }),
  );
  tree.commit();
  witnesses.push(w);
}
const witness = witnesses[0];
const bytes = encodeWitness(witness);
res.block_hash_ms_without_witness = median(withoutWitness);
res.block_hash_ms_recording_witness = median(record);
res.witness_nodes = witness.nodes.length;
res.witness_bytes = bytes.length;
res.witness_share_of_stored_nodes = witness.nodes.length / storedNodes;
res.witness_encode_ms = median(
  Array.from({ length: runs }, () => time(() => encodeWitness(witness))),
);
res.witness_decode_ms = median(
  Array.from({ length: runs }, () => time(() => decodeWitness(bytes))),
);
let replayTree;
res.witness_open_ms = median(
  Array.from({ length: runs }, () =>
    time(() => {
      replayTree = openWitness(decodeWitness(bytes));
    }),
  ),
);
res.witness_replay_ms = time(() => {
  applyBlock(replayTree, witness.variant);
  replayTree.hash();
});
res.witness_replay_root_ok = hex(replayTree.hash()) === witness.post;
console.log(JSON.stringify(res));
