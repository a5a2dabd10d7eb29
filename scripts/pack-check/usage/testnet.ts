import { createRequire } from "node:module";
import {
  applyAlloc,
  BinaryStateManager,
  DEFAULT_DEVNET_GENESIS,
  produceDevnet,
} from "@bintrie/testnet";

// Sender recovery's native binding comes with the package, prebuilt (nothing compiled at install).
if (process.platform === "linux" && process.arch === "x64") {
  createRequire(import.meta.url)("secp256k1/bindings");
}

// The genesis root of go-ethereum's TestBinaryGenesisCommit alloc, through the state manager.
const state = new BinaryStateManager();
await applyAlloc(state, {
  "0x0100000000000000000000000000000000000000": {
    balance: "0x1",
    nonce: "0x0",
    code: "0x",
    storage: {
      "0x0100000000000000000000000000000000000000000000000000000000000000":
        "0x0100000000000000000000000000000000000000000000000000000000000000",
    },
  },
});
const root = Buffer.from(await state.getStateRoot()).toString("hex");
if (root !== "0870fd587c41dc778019de8c5cb3193fe4ef1f417976461952d3712ba39163f5") {
  throw new Error(`testnet: wrong genesis root ${root}`);
}
console.log("testnet ok", root, typeof produceDevnet, typeof DEFAULT_DEVNET_GENESIS);
