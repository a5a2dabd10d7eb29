// An MPT state (the "base", frozen) with a binary tree on top (the "overlay"): reads see the
// overlay first and fall back to the base, writes and deletes go only to the overlay; then the
// base is converted into the overlay step by step, and the result equals a fresh binary build.
import { applyGenesisAlloc, BinaryTree, MemoryStore } from "@bintrie/core";
import { buildMptBase, preimagesFromAlloc, TransitionState } from "@bintrie/transition";

const check = process.argv.includes("--check");
const hex = (b) => `0x${Buffer.from(b).toString("hex")}`;
const address = (h) => Uint8Array.from(Buffer.from(h.replace(/^0x/, ""), "hex"));
const alloc = {
  "0x1111111111111111111111111111111111111111": {
    balance: "0x64",
    storage: { "0x01": "0x05", "0x02": "0x06" },
  },
  "0x2222222222222222222222222222222222222222": { balance: "0x0a", nonce: "0x3" },
};

const store = new MemoryStore(); // a LevelDB store works the same and holds both trees
const { root: mptRoot } = await buildMptBase(store, alloc);
console.log(`MPT base root ${hex(mptRoot)}`);
const state = await TransitionState.open(store, {
  baseRoot: mptRoot,
  preimages: preimagesFromAlloc(alloc),
});

const a = address("0x1111111111111111111111111111111111111111");
const b = address("0x2222222222222222222222222222222222222222");
console.log(`balance of 0x11… read through the overlay: ${(await state.getAccount(a))?.balance}`);
await state.putStorage(a, 1n, Uint8Array.of(0x07)); // overlay write hides the base value
await state.deleteAccount(b); // deleted in the overlay: absent, and not resurrected from the base
console.log(
  `slot 1 = ${BigInt(hex(await state.getStorage(a, 1n)))}, slot 2 = ${BigInt(hex(await state.getStorage(a, 2n)))}`,
);
console.log(
  `0x22… after delete: ${(await state.getAccount(b)) === undefined ? "absent" : "present"}`,
);

await state.convertAll({
  leavesPerStep: 2,
  onProgress: (p) =>
    console.log(
      `  step: ${p.stepLeaves} leaves, ~${Math.round(p.fraction * 100)}% of the key space`,
    ),
});
console.log(`converted: ${state.converted}; overlay root ${hex(state.hash())}`);

// In 'remove' deletion mode the converted root equals a fresh binary build of the final state.
const removeStore = new MemoryStore();
const { root: baseRoot } = await buildMptBase(removeStore, alloc);
const removing = await TransitionState.open(removeStore, {
  baseRoot,
  preimages: preimagesFromAlloc(alloc),
  deletionMode: "remove",
});
await removing.putStorage(a, 1n, Uint8Array.of(0x07));
await removing.deleteAccount(b);
await removing.convertAll();
const fresh = new BinaryTree();
applyGenesisAlloc(fresh, {
  "0x1111111111111111111111111111111111111111": {
    balance: "0x64",
    storage: { "0x01": "0x07", "0x02": "0x06" },
  },
});
const ok = hex(removing.hash()) === hex(fresh.hash()) && (await state.getAccount(b)) === undefined;
console.log(
  `'remove' mode: converted root ${hex(removing.hash())} ${ok ? "equals" : "DIFFERS FROM"} a fresh build`,
);
if (check && !ok) process.exit(1);
if (check) console.log("example check ok");
