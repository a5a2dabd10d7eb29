import { MemoryStore, openTree } from "@bintrie/core";
import {
  buildMptBase,
  preimagesFromAlloc,
  TransitionError,
  TransitionState,
} from "@bintrie/transition";

const alloc = {
  "0x0100000000000000000000000000000000000000": {
    balance: "0x1",
    storage: {
      "0x0100000000000000000000000000000000000000000000000000000000000000":
        "0x0100000000000000000000000000000000000000000000000000000000000000",
    },
  },
};
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const store = new MemoryStore();
const { root } = await buildMptBase(store, alloc);
const state = await TransitionState.open(store, {
  baseRoot: root,
  preimages: preimagesFromAlloc(alloc),
});
const address = Uint8Array.from(Buffer.from("0100000000000000000000000000000000000000", "hex"));
const before = (await state.getAccount(address))?.balance;
await state.convertAll({ leavesPerStep: 1 });
const tree = await openTree(store);
const expected = "0870fd587c41dc778019de8c5cb3193fe4ef1f417976461952d3712ba39163f5"; // go-ethereum
if (hex(tree.hash()) !== expected) throw new Error(`root ${hex(tree.hash())}`);
try {
  await TransitionState.open(new MemoryStore());
} catch (error) {
  if (!(error instanceof TransitionError) || error.code !== "NO_BASE_ROOT") throw error;
}
console.log(
  `mpt ${hex(root).slice(0, 8)} balance ${before} converted ${state.converted} binary ${hex(tree.hash()).slice(0, 8)}`,
);
