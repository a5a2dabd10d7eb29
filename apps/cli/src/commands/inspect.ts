import { CodecError, type DecodedNode, decodeNode, encodePathKey, nodeDbKey } from "@bintrie/codec";
import { CliError } from "../cli-error.js";
import { toHex } from "../hex.js";
import { printLine } from "../line-output.js";
import { appendPositionBits, bitString, nodeBlobHash, stemSubindices } from "../node-digest.js";
import { type NodePath, parseNodePath } from "../node-path-arg.js";
import { openStore } from "../open-store.js";
import { readRootRecord } from "../root-record.js";
import { type StoreFlags, storeTarget } from "../store-target.js";

export interface InspectFlags extends StoreFlags {
  readonly json?: boolean;
}

/**
 * `bintrie inspect [PATH]`: the decoded node stored at PATH (default the root): its type, hash,
 * and stem values or group entries. Pretty JSON; one line with --json. Exit 1 if nothing is there.
 */
export async function runInspect(pathText: string | undefined, flags: InspectFlags): Promise<void> {
  const at = parseNodePath(pathText);
  const opened = await openStore(storeTarget(flags), { create: false });
  let blob: Uint8Array | undefined;
  let scheme = "sha256-be";
  try {
    blob = await opened.store.get(nodeDbKey(at.key));
    scheme = (await readRootRecord(opened.store))?.scheme ?? scheme;
  } finally {
    await opened.close();
  }
  const where =
    at.depth === 0
      ? "the root path"
      : `path ${toHex(at.key)} (bits ${bitString(at.bits, at.depth)})`;
  if (blob === undefined) throw new CliError("NOT_FOUND", `no node stored at ${where}`);
  let node: DecodedNode;
  try {
    node = decodeNode(blob);
  } catch (error) {
    if (!(error instanceof CodecError)) throw error;
    throw new CliError(
      "CORRUPT_STORE",
      `the ${blob.length}-byte blob at ${where} does not decode: ${error.message}`,
    );
  }
  const { getHasher } = await import("@bintrie/core");
  const { hashFunctionOfScheme } = await import("@bintrie/core/embedding");
  const hasher = getHasher(
    hashFunctionOfScheme(scheme as Parameters<typeof hashFunctionOfScheme>[0]),
  );
  const described = describeNode(at, blob, node, toHex(nodeBlobHash(hasher, node)));
  printLine(flags.json ? JSON.stringify(described) : JSON.stringify(described, null, 2));
}

function describeNode(at: NodePath, blob: Uint8Array, node: DecodedNode, hash: string): object {
  const base = {
    path: toHex(at.key),
    bits: bitString(at.bits, at.depth),
    depth: at.depth,
    kind: node.kind,
    hash,
    blobBytes: blob.length,
  };
  if (node.kind === "stem") {
    const subindices = stemSubindices(node);
    return {
      ...base,
      stem: toHex(node.stem),
      valueCount: node.count,
      values: Array.from(subindices, (subindex, i) => ({
        subindex,
        value: toHex(node.values.subarray(i * 32, i * 32 + 32)),
      })),
    };
  }
  if (node.kind === "group") {
    const entries = [];
    for (let e = 0; e < node.count; e++) {
      const offset = node.depthOffsets[e]!;
      const bits = at.bits.slice();
      appendPositionBits(bits, at.depth, node.positions[e]!, offset, node.groupDepth);
      entries.push({
        position: node.positions[e]!,
        depthOffset: offset,
        path: toHex(encodePathKey(bits, at.depth + offset)),
        bits: bitString(bits, at.depth + offset),
        hash: toHex(node.hashes.subarray(e * 32, e * 32 + 32)),
      });
    }
    return { ...base, groupDepth: node.groupDepth, entryCount: node.count, entries };
  }
  if (node.kind === "internal") {
    return { ...base, left: toHex(node.left), right: toHex(node.right) };
  }
  return base;
}
