import { applyGenesisAlloc, BinaryTree, MemoryStore, openTree } from "@bintrie/core";
import { prove, verifyProof } from "@bintrie/core/proof";

const tree = new BinaryTree({ store: new MemoryStore() });
applyGenesisAlloc(tree, {
  "0x0100000000000000000000000000000000000000": {
    balance: "0x1",
    storage: {
      "0x0100000000000000000000000000000000000000000000000000000000000000":
        "0x0100000000000000000000000000000000000000000000000000000000000000",
    },
  },
});
const root = await tree.persist();
const hex = Array.from(root, (b) => b.toString(16).padStart(2, "0")).join("");
if (hex !== "0870fd587c41dc778019de8c5cb3193fe4ef1f417976461952d3712ba39163f5") {
  throw new Error(`core: wrong genesis root ${hex}`);
}
const reopened = await openTree(tree.store!);
const key = reopened.keys.basicDataKey(new Uint8Array(20).fill(0).map((_, i) => (i === 0 ? 1 : 0)));
const proof = await prove(reopened, [key]);
const [value] = verifyProof(root, [key], proof);
if (value === undefined) throw new Error("core: proof did not verify the basic data leaf");
console.log("core ok", hex);
