import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import { compareBytes } from "../src/bytes/index.js";
import { hashInternal, hashStem } from "../src/hash/index.js";
import { BinaryTree, getHasher } from "../src/index.js";
import { ProofError, type ProofErrorCode, verifyProof } from "../src/proof/index.js";
import { proveSync } from "../src/proof/prove.js";
import { hex } from "./helpers/shared.js";

/**
 * Hand-built proofs for the attacks the verifier's checks exist for. Each builds bytes that
 * the format can express and shows the typed rejection (and, where it matters, that the hashes
 * alone would have accepted them).
 */

const hasher = getHasher("sha256");
const ones = new Uint8Array(32).fill(1);
const twos = new Uint8Array(32).fill(2);

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function key(stemFirstByte: number, sub: number, fill = 0): Uint8Array {
  const k = new Uint8Array(32).fill(fill);
  k[0] = stemFirstByte;
  k[31] = sub;
  return k;
}

/** A version-1 sha256 proof from a shape bit string (spaces ignored) and data parts. */
function encode(keys: Uint8Array[], shape: string, ...data: Uint8Array[]): Uint8Array {
  const bits = shape.replace(/\s/g, "");
  const shapeBytes = new Uint8Array(Math.ceil(bits.length / 8));
  for (let i = 0; i < bits.length; i++)
    if (bits[i] === "1") shapeBytes[i >>> 3]! |= 0x80 >>> (i & 7);
  const sorted = [...keys].sort(compareBytes);
  const digest = sha256(concat(...sorted)).subarray(0, 8);
  expect(shapeBytes.length).toBeLessThan(128);
  return concat(
    new Uint8Array([1, 1]),
    digest,
    new Uint8Array([shapeBytes.length]),
    shapeBytes,
    ...data,
  );
}

function rejection(run: () => unknown): ProofErrorCode {
  try {
    run();
  } catch (error) {
    if (error instanceof ProofError) return error.code;
    throw error;
  }
  throw new Error("expected a ProofError");
}

/** H(x || 0) applied n times: a lone value's path up a stem subtree. */
function upWithZeroSiblings(h: Uint8Array, n: number): Uint8Array {
  let out = h;
  for (let i = 0; i < n; i++) out = hashInternal(hasher, out, new Uint8Array(32));
  return out;
}

describe("forged proofs", () => {
  it("a stem passed off as an internal node to hide a present key: AMBIGUOUS_NODE", () => {
    // One stem 0xc0 00.. with a value at subindex 0, at the root.
    const k = key(0xc0, 0);
    const tree = new BinaryTree();
    tree.put(k, ones);
    const root = tree.hash();
    // EIP-7864: stem hash = H(stem || 0x00 || R) = an internal node's H(left || right) with
    // left = stem || 0x00 and right = R = H(L || 0^32), L = the subtree node over subs 0..127.
    const stemHalf = concat(k.subarray(0, 31), new Uint8Array(1));
    const leaf = sha256(ones);
    const level1 = upWithZeroSiblings(leaf, 7);
    const R = hashInternal(hasher, level1, new Uint8Array(32));
    expect(hex(hashInternal(hasher, stemHalf, R))).toBe(hex(root));
    // The forgery: root "internal" (k goes right, bit 0 = 1) with left sibling stem || 0x00;
    // at depth 1 an "internal" R (k goes right again, bit 1 = 1) whose right child is empty.
    // Shape: 0 (internal) 0 (left sibling hash) 0 (internal) 0 (left sibling hash) 11 (empty).
    const forged = encode([k], "0 0 0 0 11", stemHalf, level1);
    // Its hashes do lead to the real root: only the ambiguity check stops "k is absent".
    expect(rejection(() => verifyProof(root, [k], forged))).toBe("AMBIGUOUS_NODE");
    expect(verifyProof(root, [k], proveSync(tree, [k]))).toEqual([ones]);
  });

  it("a key's own stem written as 'another stem' to claim it absent: NON_CANONICAL", () => {
    const k = key(0x00, 0);
    const tree = new BinaryTree();
    tree.put(k, ones);
    const root = tree.hash();
    // Shape: 10 (stem) 0 (another stem) 11111111 (right siblings of the lowest value, zero);
    // data: the stem, lowest subindex 0, its value. This is the honest absence proof of any
    // other key that reaches this stem...
    const shape = "10 0 11111111";
    const data = [k.subarray(0, 31), new Uint8Array([0]), ones];
    const other = key(0x80, 5);
    expect(verifyProof(root, [other], encode([other], shape, ...data))).toEqual([undefined]);
    // ...and the same bytes for k itself would hash to the root too.
    expect(rejection(() => verifyProof(root, [k], encode([k], shape, ...data)))).toBe(
      "NON_CANONICAL",
    );
  });

  it("another stem whose bits do not lead to where it sits: STEM_OFF_PATH", () => {
    const tree = new BinaryTree();
    tree.put(key(0x00, 0), ones);
    tree.put(key(0x80, 0), twos);
    const absent = key(0x80, 0, 0x33);
    absent[0] = 0x80;
    const proof = proveSync(tree, [absent]);
    expect(verifyProof(tree.hash(), [absent], proof)).toEqual([undefined]);
    // The absent key goes right at the root; the stem it meets there starts with bit 1.
    const stemAt = proof.length - 32 - 1 - 31;
    expect(proof[stemAt]).toBe(0x80);
    const moved = proof.slice();
    moved[stemAt] = 0x00;
    expect(rejection(() => verifyProof(tree.hash(), [absent], moved))).toBe("STEM_OFF_PATH");
  });

  it("an internal node over an empty child and a stem: NON_CANONICAL", () => {
    const k = key(0x80, 0);
    const tree = new BinaryTree();
    tree.put(k, ones);
    const left = key(0x00, 0);
    // 0 (internal) 11 (left: empty) 10 1 00000000 1 11111111 (right: k's stem)
    const forged = encode([left, k], "0 11 10 1 00000000 1 11111111", ones);
    expect(rejection(() => verifyProof(tree.hash(), [left, k], forged))).toBe("NON_CANONICAL");
  });

  it("a zero hash written as a 32-byte sibling: NON_CANONICAL", () => {
    const tree = new BinaryTree();
    tree.put(key(0x00, 0), ones);
    tree.put(key(0x80, 0), twos);
    const k = key(0x00, 0);
    const proof = proveSync(tree, [k]);
    const zeroed = proof.slice();
    zeroed.fill(0, proof.length - 32);
    expect(rejection(() => verifyProof(tree.hash(), [k], zeroed))).toBe("NON_CANONICAL");
  });

  it("a stem subtree node with two zero children: NON_CANONICAL", () => {
    const present = key(0x00, 0);
    const absent = key(0x00, 2);
    const tree = new BinaryTree();
    tree.put(present, ones);
    const honest = proveSync(tree, [absent]);
    expect(verifyProof(tree.hash(), [absent], honest)).toEqual([undefined]);
    // Honest: levels 0..6 branch (0000000); at level 6 the left sibling over subs 0..1 (0 and
    // its hash), then the zero node over subs 2..3 as one bit (1); then the six zero right
    // siblings above. Forged: the node over 2..3 as a branch (0) over two absent leaves (0 1).
    const level7 = hashInternal(hasher, sha256(ones), new Uint8Array(32));
    const forged = encode([absent], "10 1 0000000 0 001 111111", level7);
    expect(rejection(() => verifyProof(tree.hash(), [absent], forged))).toBe("NON_CANONICAL");
    expect(hex(encode([absent], "10 1 0000000 0 1 111111", level7))).toBe(hex(honest));
  });

  it("internal nodes below depth 247: NON_CANONICAL", () => {
    const k = new Uint8Array(32);
    const forged = encode([k], "0".repeat(249));
    expect(rejection(() => verifyProof(new Uint8Array(32), [k], forged))).toBe("NON_CANONICAL");
  });

  it("a stem choice beyond the keys' distinct stems: MALFORMED", () => {
    const a = key(0x00, 0);
    const b = key(0x00, 0, 0x01);
    b[0] = 0x00;
    const c = key(0x00, 0, 0x02);
    c[0] = 0x00;
    const tree = new BinaryTree();
    tree.put(a, ones);
    // Three distinct stems reach the root stem: a 2-bit choice; 11 = 3 is out of range.
    const forged = encode([a, b, c], "10 1 11 00000000 1 11111111", ones);
    expect(rejection(() => verifyProof(tree.hash(), [a, b, c], forged))).toBe("MALFORMED");
    expect(verifyProof(tree.hash(), [a, b, c], proveSync(tree, [a, b, c]))).toEqual([
      ones,
      undefined,
      undefined,
    ]);
  });

  it("header and padding: non-minimal or overlong lengths, non-zero padding, spare shape bytes", () => {
    const k = key(0x00, 0);
    const tree = new BinaryTree();
    tree.put(k, ones);
    const root = tree.hash();
    const proof = proveSync(tree, [k]);
    expect(proof[10]).toBe(0x03);
    const head = proof.subarray(0, 10);
    const shape = proof.subarray(11, 14);
    const value = proof.subarray(14);
    const nonMinimal = concat(head, new Uint8Array([0x83, 0x00]), shape, value);
    expect(rejection(() => verifyProof(root, [k], nonMinimal))).toBe("MALFORMED");
    const overlong = concat(head, new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x01]), shape, value);
    expect(rejection(() => verifyProof(root, [k], overlong))).toBe("MALFORMED");
    const padded = proof.slice();
    padded[13]! |= 0x01;
    expect(rejection(() => verifyProof(root, [k], padded))).toBe("TRAILING_DATA");
    const spare = concat(head, new Uint8Array([0x04]), shape, new Uint8Array([0]), value);
    expect(rejection(() => verifyProof(root, [k], spare))).toBe("TRAILING_DATA");
  });

  it("the prover refuses absence through a stem without values (UNPROVABLE)", () => {
    const tree = new BinaryTree();
    const bare = key(0x80, 0);
    tree.putStem(bare.subarray(0, 31), []);
    tree.put(key(0x00, 0), ones);
    const beside = key(0x80, 0, 0x44);
    beside[0] = 0x80;
    expect(rejection(() => proveSync(tree, [beside]))).toBe("UNPROVABLE");
    // Its own stem's keys are provable: a matched stem whose subtree is zero.
    expect(verifyProof(tree.hash(), [bare], proveSync(tree, [bare]))).toEqual([undefined]);
    // Why: the bare stem's hash is an internal node's hash over (stem || 0x00, 0^32).
    const stemHalf = concat(bare.subarray(0, 31), new Uint8Array(1));
    expect(hex(hashStem(hasher, bare.subarray(0, 31), []))).toBe(
      hex(hashInternal(hasher, stemHalf, new Uint8Array(32))),
    );
  });
});
