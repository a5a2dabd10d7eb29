// The page: opens the tree stored in IndexedDB (or an empty one), adds accounts on click, and
// commits each change atomically. The state survives reloads.
import { EMPTY_CODE_HASH, openTree } from "@bintrie/core";
import { prepareSha256Kernel } from "@bintrie/core/sha256";
import { createIdbStore } from "@bintrie/store-idb";

const store = createIdbStore({ database: "bintrie-example", storeName: "nodes" });
const hex = (bytes) => `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
const COUNT_KEY = new Uint8Array(32).fill(0xee); // a plain leaf that counts the accounts

// Browsers refuse to compile the 28 KB WebAssembly SHA-256 kernel synchronously on the main
// thread; compile it asynchronously once, before the first tree (else the pure-TS kernel runs).
const fastHashing = await prepareSha256Kernel();
let tree = await openTree(store);

async function count() {
  const [value] = await tree.getMany([COUNT_KEY]);
  return value === undefined ? 0 : new DataView(value.buffer, value.byteOffset).getUint32(28);
}

async function addAccount() {
  const n = (await count()) + 1;
  const address = new Uint8Array(20);
  new DataView(address.buffer).setUint32(16, n);
  await tree.load([tree.keys.basicDataKey(address)]);
  tree.putAccount(address, {
    nonce: 0n,
    balance: BigInt(n) * 10n ** 18n,
    codeHash: EMPTY_CODE_HASH,
    codeSize: 0,
  });
  const counter = new Uint8Array(32);
  new DataView(counter.buffer).setUint32(28, n);
  await tree.putMany([{ key: COUNT_KEY, value: counter }]);
  await tree.persist(); // one IndexedDB transaction: nodes, deletes, root record
}

async function render() {
  document.querySelector("#count").textContent = String(await count());
  document.querySelector("#root").textContent = hex(tree.hash());
}

document.querySelector("#add")?.addEventListener("click", async () => {
  await addAccount();
  await render();
});
document.querySelector("#clear")?.addEventListener("click", async () => {
  const keys = [];
  for await (const [key] of store.entries()) keys.push(key);
  await store.batch(keys.map((key) => ({ type: "del", key })));
  tree = await openTree(store);
  await render();
});

// Exposed for the automated check (check.mjs).
globalThis.bintrieExample = {
  addAccount,
  count,
  fastHashing,
  root: () => hex(tree.hash()),
  ready: render(),
};
await globalThis.bintrieExample.ready;
