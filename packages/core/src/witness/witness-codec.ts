import { CodecError, decodePathKey, describeValue, MAX_GROUP_DEPTH } from "@bintrie/codec";
import { bytesToHex } from "../bytes/hex.js";
import { KEY_SCHEMES } from "../embedding/key-scheme.js";
import { compareBytes } from "../store/bytes-order.js";
import { TreeError } from "../tree/tree-error.js";
import type { Witness, WitnessNode } from "./witness.js";

/** "UBTW": unified binary tree witness. */
const MAGIC = [0x55, 0x42, 0x54, 0x57];
export const WITNESS_FORMAT_VERSION = 1;
const HEADER = 4 + 1 + 1 + 1 + 32 + 4;

/**
 * Bytes of a witness, canonical (one encoding per witness): "UBTW", version 1, scheme id (index
 * in KEY_SCHEMES), group depth, root (32), node count (u32 BE), then per node in strictly
 * increasing path-key order: path length (u8), path key, blob length (u32 BE), blob.
 */
export function encodeWitness(witness: Witness): Uint8Array {
  assertWitness(witness);
  const nodes = sortedWitnessNodes(witness);
  let size = HEADER;
  for (const node of nodes) size += 1 + node.path.length + 4 + node.blob.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  out[4] = WITNESS_FORMAT_VERSION;
  out[5] = KEY_SCHEMES.indexOf(witness.scheme);
  out[6] = witness.groupDepth;
  out.set(witness.root, 7);
  view.setUint32(39, nodes.length);
  let at = HEADER;
  for (const node of nodes) {
    out[at++] = node.path.length;
    out.set(node.path, at);
    at += node.path.length;
    view.setUint32(at, node.blob.length);
    at += 4;
    out.set(node.blob, at);
    at += node.blob.length;
  }
  return out;
}

/** Parses `encodeWitness` bytes, refusing anything but the canonical encoding (MALFORMED_WITNESS). */
export function decodeWitness(bytes: Uint8Array): Witness {
  if (!(bytes instanceof Uint8Array)) {
    throw malformed(`expected witness bytes (a Uint8Array), got ${describeValue(bytes)}`);
  }
  if (bytes.length < HEADER)
    throw malformed(`${bytes.length} bytes is shorter than the ${HEADER}-byte header`);
  for (let i = 0; i < 4; i++)
    if (bytes[i] !== MAGIC[i]) throw malformed("missing the 'UBTW' magic");
  if (bytes[4] !== WITNESS_FORMAT_VERSION) {
    throw malformed(
      `format version ${bytes[4]} is not supported (expected ${WITNESS_FORMAT_VERSION})`,
    );
  }
  const scheme = KEY_SCHEMES[bytes[5]!];
  if (scheme === undefined) throw malformed(`unknown key scheme id ${bytes[5]}`);
  const groupDepth = bytes[6]!;
  if (groupDepth > MAX_GROUP_DEPTH)
    throw malformed(`group depth ${groupDepth} is above ${MAX_GROUP_DEPTH}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const root = bytes.slice(7, 39);
  const count = view.getUint32(39);
  const nodes: WitnessNode[] = [];
  let at = HEADER;
  let previous: Uint8Array | undefined;
  for (let n = 0; n < count; n++) {
    if (at + 1 > bytes.length) throw malformed(`truncated at node ${n} of ${count}`);
    const pathLength = bytes[at++]!;
    if (at + pathLength + 4 > bytes.length) throw malformed(`truncated in node ${n}'s path`);
    const path = bytes.slice(at, at + pathLength);
    at += pathLength;
    try {
      decodePathKey(path);
    } catch (error) {
      if (error instanceof CodecError) throw malformed(`node ${n}: ${error.message}`, error);
      throw error;
    }
    const blobLength = view.getUint32(at);
    at += 4;
    if (blobLength === 0) throw malformed(`node ${n} (path ${pathHex(path)}) has an empty blob`);
    if (at + blobLength > bytes.length) throw malformed(`truncated in node ${n}'s blob`);
    const blob = bytes.slice(at, at + blobLength);
    at += blobLength;
    if (previous !== undefined && compareBytes(previous, path) >= 0) {
      throw malformed(
        `node paths are not in strictly increasing order at node ${n} (path ${pathHex(path)})`,
      );
    }
    previous = path;
    nodes.push({ path, blob });
  }
  if (at !== bytes.length)
    throw malformed(`${bytes.length - at} trailing bytes after ${count} nodes`);
  return { root, groupDepth, scheme, nodes };
}

/**
 * The nodes of a witness that passed {@link assertWitness}, sorted by path key; a path that
 * appears twice is TreeError('MALFORMED_WITNESS') naming it. The one duplicate check of
 * encodeWitness and openWitness.
 */
export function sortedWitnessNodes(witness: Witness): WitnessNode[] {
  const nodes = [...witness.nodes].sort((a, b) => compareBytes(a.path, b.path));
  for (let i = 1; i < nodes.length; i++) {
    if (compareBytes(nodes[i - 1]!.path, nodes[i]!.path) === 0) {
      throw malformed(`node path ${pathHex(nodes[i]!.path)} appears twice`);
    }
  }
  return nodes;
}

/** Shape checks shared by encodeWitness and openWitness. */
export function assertWitness(witness: Witness): void {
  if (typeof witness !== "object" || witness === null || Array.isArray(witness)) {
    throw malformed(`expected a witness object, got ${describeValue(witness)}`);
  }
  if (!(witness.root instanceof Uint8Array) || witness.root.length !== 32) {
    throw malformed(`witness.root must be 32 bytes, got ${describeValue(witness.root)}`);
  }
  if (!KEY_SCHEMES.includes(witness.scheme))
    throw malformed(`unknown key scheme ${describeValue(witness.scheme)}`);
  if (
    !Number.isInteger(witness.groupDepth) ||
    witness.groupDepth < 0 ||
    witness.groupDepth > MAX_GROUP_DEPTH
  ) {
    throw malformed(
      `group depth must be an integer 0..${MAX_GROUP_DEPTH}, got ${describeValue(witness.groupDepth)}`,
    );
  }
  if (!Array.isArray(witness.nodes)) {
    throw malformed(`witness.nodes must be an array, got ${describeValue(witness.nodes)}`);
  }
  for (let n = 0; n < witness.nodes.length; n++) {
    const node: unknown = witness.nodes[n];
    if (
      typeof node !== "object" ||
      node === null ||
      !((node as WitnessNode).path instanceof Uint8Array) ||
      !((node as WitnessNode).blob instanceof Uint8Array) ||
      (node as WitnessNode).blob.length === 0
    ) {
      throw malformed(
        `node ${n} needs a path key and a non-empty blob (Uint8Arrays), got ${describeValue(node)}`,
      );
    }
    try {
      decodePathKey((node as WitnessNode).path);
    } catch (error) {
      if (error instanceof CodecError) throw malformed(`node ${n}: ${error.message}`, error);
      throw error;
    }
  }
}

function malformed(message: string, cause?: unknown): TreeError {
  return new TreeError(
    "MALFORMED_WITNESS",
    `witness: ${message}`,
    cause === undefined ? undefined : { cause },
  );
}

function pathHex(path: Uint8Array): string {
  return path.length === 0 ? "(root)" : bytesToHex(path);
}
