// Writes the shared workload as `bintrie build` JSON lines: node rows/make-build-input.mjs N FILE
import { createWriteStream } from "node:fs";
import { workload } from "./workload.mjs";

const n = Number(process.argv[2] ?? 1_000_000);
const file = process.argv[3] ?? "build-input.jsonl";
const { key, value } = workload(n, 0);
const out = createWriteStream(file);
const hex = (b) => Buffer.from(b.buffer, b.byteOffset, b.length).toString("hex");
let chunk = "";
for (let i = 0; i < n; i++) {
  chunk += `{"key":"0x${hex(key(i))}","value":"0x${hex(value(i))}"}\n`;
  if (chunk.length > 1 << 20) {
    if (!out.write(chunk)) await new Promise((r) => out.once("drain", r));
    chunk = "";
  }
}
out.end(chunk);
await new Promise((r) => out.once("finish", r));
