// The shared workload (../shared/bench-peers/ethereumjs-binarytree.mjs describes it):
//   key_i = sha256(uint64_be(i)), value_i = sha256(key_i), i = 0..N-1, inserted in order;
//   updates k = 0..U-1: j = uint32_be(sha256("upd" || uint32_be(k))[0..4]) mod N,
//   new value_j = sha256(value_j || uint32_be(k)) with the ORIGINAL value_j (what the peer script
//   does and what the published roots in ethereumjs-vectors.json were produced with), put in order.
// Generated with node:crypto before any timing starts.
import { createHash } from "node:crypto";

const sha = (b) => new Uint8Array(createHash("sha256").update(b).digest());

function u64be(i) {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(i));
  return b;
}

function u32be(i) {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, i);
  return b;
}

export function workload(n, updates = 1000) {
  const keys = new Array(n);
  const values = new Array(n);
  for (let i = 0; i < n; i++) {
    keys[i] = sha(u64be(i));
    values[i] = sha(keys[i]);
  }
  const upd = [];
  for (let k = 0; k < updates; k++) {
    const r = sha(Buffer.concat([Buffer.from("upd"), u32be(k)]));
    const j = new DataView(r.buffer).getUint32(0) % n;
    const v = sha(Buffer.concat([values[j], u32be(k)]));
    upd.push([j, v]);
  }
  return { keys, values, updates: upd };
}

export const hex = (b) => `0x${Buffer.from(b).toString("hex")}`;
