import { CodecError, type DecodedNode, decodeNode, encodePathKey, nodeDbKey } from "@bintrie/codec";
import { bytesToHex, type Hasher } from "@bintrie/core";
import { equalBitPrefix } from "@bintrie/core/bytes";
import { CliError } from "../cli-error.js";
import { parseHexArg } from "../hex.js";
import { printLine } from "../line-output.js";
import { appendPositionBits, bitString, nodeBlobHash, stemSubindices } from "../node-digest.js";
import { type NodePath, parseNodePath } from "../node-path-arg.js";
import { openStore } from "../open-store.js";
import { readRootRecord } from "../root-record.js";
import { type StoreFlags, storeTarget } from "../store-target.js";

export interface InspectFlags extends StoreFlags {
  readonly json?: boolean;
  readonly key?: string;
}

/**
 * `bintrie inspect [PATH]`: the decoded node stored at PATH (default the root): its type, hash,
 * and stem values or group entries. Pretty JSON; one line with --json. Exit 1 if nothing is there.
 */
export async function runInspect(pathText: string | undefined, flags: InspectFlags): Promise<void> {
  if (flags.key !== undefined) {
    if (pathText !== undefined) throw new CliError("BAD_USAGE", "give either PATH or --key KEY");
    await inspectKey(parseHexArg(flags.key, "--key", { bytes: 32 }), flags);
    return;
  }
  const at = parseNodePath(pathText);
  const opened = await openStore(storeTarget(flags, { readOnly: true }), { create: false });
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
      : `path ${bytesToHex(at.key)} (bits ${bitString(at.bits, at.depth)})`;
  if (blob === undefined) throw new CliError("NOT_FOUND", `no node stored at ${where}`);
  const node = decodeStoredNode(blob, where);
  const hasher = await schemeHasher(scheme);
  const described = describeNode(at, blob, node, bytesToHex(nodeBlobHash(hasher, node)));
  printLine(flags.json ? JSON.stringify(described) : JSON.stringify(described, null, 2));
}

/** The stored blob decoded; a blob that does not decode is a corrupt store, named by `where`. */
function decodeStoredNode(blob: Uint8Array, where: string): DecodedNode {
  try {
    return decodeNode(blob);
  } catch (error) {
    if (!(error instanceof CodecError)) throw error;
    throw new CliError(
      "CORRUPT_STORE",
      `the ${blob.length}-byte blob at ${where} does not decode: ${error.message}`,
    );
  }
}

/** The node hasher of a store's scheme (as its root record names it). */
async function schemeHasher(scheme: string): Promise<Hasher> {
  const { getHasher } = await import("@bintrie/core");
  const { hashFunctionOfScheme } = await import("@bintrie/core/embedding");
  return getHasher(hashFunctionOfScheme(scheme as Parameters<typeof hashFunctionOfScheme>[0]));
}

function describeNode(at: NodePath, blob: Uint8Array, node: DecodedNode, hash: string): object {
  const base = {
    path: bytesToHex(at.key),
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
      stem: bytesToHex(node.stem),
      valueCount: node.count,
      values: Array.from(subindices, (subindex, i) => ({
        subindex,
        value: bytesToHex(node.values.subarray(i * 32, i * 32 + 32)),
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
        path: bytesToHex(encodePathKey(bits, at.depth + offset)),
        bits: bitString(bits, at.depth + offset),
        hash: bytesToHex(node.hashes.subarray(e * 32, e * 32 + 32)),
      });
    }
    return { ...base, groupDepth: node.groupDepth, entryCount: node.count, entries };
  }
  if (node.kind === "internal") {
    return { ...base, left: bytesToHex(node.left), right: bytesToHex(node.right) };
  }
  return base;
}

function where(at: NodePath): string {
  return at.depth === 0
    ? "the root path"
    : `path ${bytesToHex(at.key)} (bits ${bitString(at.bits, at.depth)})`;
}

/**
 * `inspect --key KEY`: from the root down the key's stem bits, blob by blob (groups, flat
 * internal nodes), to the stem that holds KEY; prints the stem, the value and the path.
 */
async function inspectKey(key: Uint8Array, flags: InspectFlags): Promise<void> {
  const opened = await openStore(storeTarget(flags, { readOnly: true }), { create: false });
  const path: object[] = [];
  let found: { at: NodePath; blob: Uint8Array; node: DecodedNode & { kind: "stem" } } | undefined;
  let scheme = "sha256-be";
  try {
    scheme = (await readRootRecord(opened.store))?.scheme ?? scheme;
    const hasher = await schemeHasher(scheme);
    const stemBits = new Uint8Array(32);
    stemBits.set(key.subarray(0, 31));
    let at: NodePath = { bits: new Uint8Array(32), depth: 0, key: new Uint8Array(0) };
    for (;;) {
      const blob = await opened.store.get(nodeDbKey(at.key));
      if (blob === undefined) {
        if (at.depth === 0) throw new CliError("NOT_FOUND", "no node stored at the root path");
        throw new CliError("CORRUPT_STORE", `the node at ${where(at)} is missing`);
      }
      const node = decodeStoredNode(blob, where(at));
      if (node.kind === "stem") {
        if (!equalBitPrefix(node.stem, stemBits, 248)) {
          throw new CliError(
            "NOT_FOUND",
            `no stem holds key ${bytesToHex(key)}: the path ends at ${where(at)} in stem ${bytesToHex(node.stem)}`,
          );
        }
        found = { at, blob, node };
        break;
      }
      path.push(describeNode(at, blob, node, bytesToHex(nodeBlobHash(hasher, node))));
      let next: NodePath | undefined;
      if (node.kind === "group") {
        for (let e = 0; e < node.count && next === undefined; e++) {
          const offset = node.depthOffsets[e]!;
          const bits = at.bits.slice();
          appendPositionBits(bits, at.depth, node.positions[e]!, offset, node.groupDepth);
          if (equalBitPrefix(bits, stemBits, at.depth + offset)) {
            next = { bits, depth: at.depth + offset, key: encodePathKey(bits, at.depth + offset) };
          }
        }
      } else if (node.kind === "internal") {
        const right = (stemBits[at.depth >>> 3]! & (0x80 >>> (at.depth & 7))) !== 0;
        if (!(right ? node.right : node.left).every((b) => b === 0)) {
          const bits = at.bits.slice();
          if (right) bits[at.depth >>> 3]! |= 0x80 >>> (at.depth & 7);
          next = { bits, depth: at.depth + 1, key: encodePathKey(bits, at.depth + 1) };
        }
      }
      if (next === undefined) {
        throw new CliError(
          "NOT_FOUND",
          `no stem holds key ${bytesToHex(key)}: the path ends in the ${node.kind} node at ${where(at)}`,
        );
      }
      at = next;
    }
  } finally {
    await opened.close();
  }
  const hasher = await schemeHasher(scheme);
  const subindex = key[31]!;
  const slots = stemSubindices(found.node);
  const slot = Array.from(slots).indexOf(subindex);
  const described = {
    key: bytesToHex(key),
    value: slot < 0 ? null : bytesToHex(found.node.values.subarray(slot * 32, slot * 32 + 32)),
    stem: describeNode(
      found.at,
      found.blob,
      found.node,
      bytesToHex(nodeBlobHash(hasher, found.node)),
    ),
    path,
  };
  printLine(flags.json ? JSON.stringify(described) : JSON.stringify(described, null, 2));
}
