import { decodeNode, encodePathKey, encodeStemBlobFromSlots, nodeDbKey } from "@bintrie/codec";

const stem = new Uint8Array(31).fill(0xab);
const slots: (Uint8Array | undefined)[] = new Array(256).fill(undefined);
slots[3] = new Uint8Array(32).fill(1);
const blob = encodeStemBlobFromSlots(stem, slots);
const node = decodeNode(blob);
if (node.kind !== "stem" || node.count !== 1)
  throw new Error("codec: stem blob did not round-trip");
const key: Uint8Array = nodeDbKey(encodePathKey(stem, 9));
if (key.length !== 2 + 2 + 1) throw new Error(`codec: unexpected db key length ${key.length}`);
console.log("codec ok", blob.length);
