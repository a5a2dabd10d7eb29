import { describe, expect, it } from "vitest";
import {
  BitArray,
  childPathKey,
  type DecodedNode,
  decodeNode,
  decodePathKey,
  encodeGroupBlob,
  encodeGroupBlobFromEntries,
  encodeInternalBlob,
  encodePathKey,
  encodeStemBlob,
  groupEntries,
  nodeDbKey,
  stemBlobValue,
} from "../src/index.js";
import { bytesToHex, hexToBytes } from "./hex.js";
import { loadNodesets, type NodesetCase, type NodesetNode } from "./nodesets.js";

// Every blob of every case and group depth in testdata/geth/geth-nodesets.json: it must
// decode, re-encode to identical bytes, and agree with its path, its hash and the tree's entries.

const cases = loadNodesets();
const totalBlobs = cases.reduce(
  (sum, testCase) =>
    sum + Object.values(testCase.nodesets).reduce((inner, nodes) => inner + nodes.length, 0),
  0,
);
const ZERO_HASH = "00".repeat(32);

function strip0x(hex: string): string {
  return hex.replace(/^0x/, "");
}

function reencode(node: DecodedNode): Uint8Array {
  switch (node.kind) {
    case "stem":
      return encodeStemBlob(node.stem, node.bitmap, node.values);
    case "internal":
      return encodeInternalBlob(node.left, node.right);
    case "group":
      return encodeGroupBlob(
        node.groupDepth,
        node.count,
        node.positions,
        node.depthOffsets,
        node.hashes,
      );
    case "empty":
      return new Uint8Array(0);
  }
}

/** Path key of `parent` followed by the top `bitCount` bits of a `groupDepth`-bit position. */
function descendantPathKey(
  parent: BitArray,
  position: number,
  bitCount: number,
  groupDepth: number,
): string {
  let path = parent;
  for (let level = 0; level < bitCount; level++) {
    path = path.appendBit(((position >> (groupDepth - 1 - level)) & 1) as 0 | 1);
  }
  return bytesToHex(path.keyBytes());
}

/** stem hex -> subindex -> value hex, the last write winning. */
function expectedStemValues(testCase: NodesetCase): Map<string, Map<number, string>> {
  const stems = new Map<string, Map<number, string>>();
  for (const entry of testCase.entries) {
    const key = strip0x(entry.key);
    const stem = key.slice(0, 62);
    const values = stems.get(stem) ?? new Map<number, string>();
    values.set(Number.parseInt(key.slice(62), 16), strip0x(entry.value));
    stems.set(stem, values);
  }
  return stems;
}

function checkNodeset(testCase: NodesetCase, groupDepthKey: string, nodes: NodesetNode[]): void {
  const groupDepth = Number(groupDepthKey);
  const byPath = new Map(nodes.map((node) => [strip0x(node.path), node]));
  expect(byPath.size).toBe(nodes.length);
  expect(byPath.get("")?.hash).toBe(testCase.root);

  const stemValues = expectedStemValues(testCase);
  const referenced = new Set<string>();
  const reference = (childPath: string, childHash: string): NodesetNode => {
    const child = byPath.get(childPath);
    expect(child, `no node stored at child path ${childPath}`).toBeDefined();
    expect(strip0x(child!.hash)).toBe(childHash);
    expect(referenced.has(childPath)).toBe(false);
    referenced.add(childPath);
    return child!;
  };

  for (const node of nodes) {
    const pathHex = strip0x(node.path);
    const pathKey = hexToBytes(pathHex);
    const blob = hexToBytes(node.blob);

    const { bits, length } = decodePathKey(pathKey);
    expect(bytesToHex(encodePathKey(bits, length))).toBe(pathHex);
    expect(bytesToHex(nodeDbKey(pathKey))).toBe(`7641${pathHex}`);
    const path = BitArray.fromPathKey(pathKey);

    const decoded = decodeNode(blob);
    expect(bytesToHex(reencode(decoded))).toBe(strip0x(node.blob));

    switch (decoded.kind) {
      case "stem": {
        if (length > 0) {
          expect(bytesToHex(childPathKey(decoded.stem, length - 1))).toBe(pathHex);
        }
        const values = stemValues.get(bytesToHex(decoded.stem));
        expect(
          values,
          `stem ${bytesToHex(decoded.stem)} is not in the case's entries`,
        ).toBeDefined();
        expect(decoded.count).toBe(values!.size);
        for (const [subindex, value] of values!) {
          expect(bytesToHex(stemBlobValue(decoded, subindex)!)).toBe(value);
        }
        break;
      }
      case "internal": {
        expect(groupDepth).toBe(0);
        for (const [bit, hash] of [
          [0, decoded.left],
          [1, decoded.right],
        ] as const) {
          const childPath = bytesToHex(path.appendBit(bit).keyBytes());
          if (bytesToHex(hash) === ZERO_HASH) {
            expect(byPath.has(childPath)).toBe(false);
          } else {
            reference(childPath, bytesToHex(hash));
          }
        }
        break;
      }
      case "group": {
        expect(decoded.groupDepth).toBe(groupDepth);
        expect(length % groupDepth).toBe(0);
        expect(decoded.count).toBeGreaterThan(0);
        const entries = groupEntries(decoded);
        expect(bytesToHex(encodeGroupBlobFromEntries(groupDepth, entries))).toBe(
          strip0x(node.blob),
        );
        for (const entry of entries) {
          const childPath = descendantPathKey(path, entry.position, entry.depthOffset, groupDepth);
          const child = reference(childPath, bytesToHex(entry.hash));
          // Only stems end above a group's bottom layer; the next group's roots sit on it.
          if (entry.depthOffset < groupDepth) {
            expect(strip0x(child.blob).slice(0, 2)).toBe("01");
          }
        }
        break;
      }
      case "empty":
        throw new Error(`empty blob stored at path ${pathHex}`);
    }
  }

  // Every node but the root is the child of exactly one stored parent.
  expect(referenced.size).toBe(nodes.length - 1);
  expect(referenced.has("")).toBe(false);
}

describe(`geth-nodesets.json: ${cases.length} cases, ${totalBlobs} blobs`, () => {
  it("holds the 13 cases and 1715 blobs of the vendored subset (3855 in the full file)", () => {
    expect(cases.length).toBe(13);
    expect(totalBlobs).toBe(1715);
  });

  for (const testCase of cases) {
    for (const [groupDepthKey, nodes] of Object.entries(testCase.nodesets)) {
      it(`${testCase.name} g=${groupDepthKey}: ${nodes.length} blobs decode, re-encode byte for byte and match their paths`, () => {
        checkNodeset(testCase, groupDepthKey, nodes);
      });
    }
  }
});
