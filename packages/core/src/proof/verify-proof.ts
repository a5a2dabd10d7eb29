import { assertKnownOptions, describeValue } from "@bintrie/codec";
import { hashFunctionOfScheme, KEY_SCHEMES, type KeyScheme } from "../embedding/key-scheme.js";
import { getHasher } from "../hash/get-hasher.js";
import { type Hasher, type HashFunctionName, isHasher } from "../hash/hasher.js";
import { optionKeys } from "../options/known-options.js";
import { HashPlan } from "./hash-plan.js";
import { keySetDigest } from "./key-set-digest.js";
import { ProofError } from "./proof-error.js";
import {
  FIXED_HEADER_BYTES,
  hashNameOfId,
  KEY_SET_DIGEST_BYTES,
  MAX_LENGTH_BYTES,
  PROOF_VERSION,
} from "./proof-format.js";
import { ABSENT, ProofReader } from "./proof-reader.js";
import { sortKeys } from "./sorted-keys.js";

/** Which node hash function the proof's tree uses. Default: SHA-256 (go-ethereum). */
export interface VerifyProofOptions {
  /** The tree's key scheme; only its hash function matters to a proof. */
  readonly scheme?: KeyScheme;
  /** The node hash function directly ('sha256' or 'blake3'). */
  readonly hash?: HashFunctionName;
  /** A hasher to use (for example a faster SHA-256 kernel); must agree with scheme/hash. */
  readonly hasher?: Hasher;
}

const VERIFY_PROOF_OPTION_KEYS = optionKeys<VerifyProofOptions>()(["scheme", "hash", "hasher"]);

// One plan reused across calls keeps verification allocation-light; a nested call gets its own.
const sharedPlan = new HashPlan();

/**
 * Verifies a proof made by `prove` against `root` and returns, for each key in `keys` (same
 * order), its 32-byte value or undefined when the proof shows it absent. Throws ProofError
 * for any inconsistency (a wrong root, a proof for other keys or another hash function, a
 * truncated, extended or altered proof) and never answers from a proof it did not fully check.
 * Needs nothing but the root: no tree, no store.
 *
 * @example
 * ```ts
 * import { BinaryTree } from "@bintrie/core";
 * import { prove, verifyProof } from "@bintrie/core/proof";
 *
 * const tree = new BinaryTree();
 * const present = new Uint8Array(32).fill(1);
 * const absent = new Uint8Array(32).fill(9);
 * tree.put(present, new Uint8Array(32).fill(2));
 * const proof = await prove(tree, [present, absent]);
 * verifyProof(tree.hash(), [present, absent], proof); // [value, undefined]
 * ```
 */
export function verifyProof(
  root: Uint8Array,
  keys: readonly Uint8Array[],
  proof: Uint8Array,
  options?: VerifyProofOptions | KeyScheme,
): (Uint8Array | undefined)[] {
  const hasher = resolveHasher(options);
  if (!(root instanceof Uint8Array) || root.length !== 32) {
    throw new ProofError(
      "INVALID_ROOT",
      `verifyProof: root must be a 32-byte Uint8Array, got ${describeValue(root)}`,
    );
  }
  const { keys: sorted, indexOf } = sortKeys(keys, "verifyProof");
  if (!(proof instanceof Uint8Array)) {
    throw new ProofError(
      "MALFORMED",
      `verifyProof: proof must be a Uint8Array, got ${describeValue(proof)}`,
    );
  }
  const header = readHeader(proof, hasher, sorted);
  const plan = sharedPlan.begin(proof) ? sharedPlan : new HashPlan();
  if (plan !== sharedPlan) plan.begin(proof);
  try {
    const reader = new ProofReader(proof, header.offset, header.shapeBytes, sorted, plan);
    const rootSlot = reader.readRoot();
    plan.evaluate(hasher);
    if (!plan.equals(rootSlot, root)) {
      throw new ProofError(
        "ROOT_MISMATCH",
        "the proof's hashes lead to a different root than the one given",
      );
    }
    const results = reader.results;
    const out: (Uint8Array | undefined)[] = new Array(indexOf.length);
    for (let i = 0; i < indexOf.length; i++) {
      const at = results[indexOf[i]!]!;
      out[i] = at === ABSENT ? undefined : proof.slice(at, at + 32);
    }
    return out;
  } finally {
    plan.end();
  }
}

/** Checks version, hash function and key set; returns where the shape bits start and their length. */
function readHeader(
  proof: Uint8Array,
  hasher: Hasher,
  sortedKeys: readonly Uint8Array[],
): { offset: number; shapeBytes: number } {
  if (proof.length === 0) throw new ProofError("TRUNCATED", "the proof is empty");
  if (proof[0] !== PROOF_VERSION) {
    throw new ProofError(
      "UNSUPPORTED_VERSION",
      `proof version ${proof[0]} is not supported (this code reads version ${PROOF_VERSION})`,
    );
  }
  if (proof.length < FIXED_HEADER_BYTES + 1) {
    throw new ProofError(
      "TRUNCATED",
      `a proof header is at least ${FIXED_HEADER_BYTES + 1} bytes, got ${proof.length}`,
    );
  }
  const name = hashNameOfId(proof[1]!);
  if (name === undefined) {
    throw new ProofError("MALFORMED", `unknown hash function id 0x${proof[1]!.toString(16)}`);
  }
  if (name !== hasher.name) {
    throw new ProofError(
      "HASH_FUNCTION_MISMATCH",
      `the proof was made with ${name} but is being verified with ${hasher.name} (pass the tree's scheme)`,
    );
  }
  const digest = keySetDigest(hasher, sortedKeys);
  for (let i = 0; i < KEY_SET_DIGEST_BYTES; i++) {
    if (digest[i] !== proof[2 + i]) {
      throw new ProofError(
        "KEY_SET_MISMATCH",
        `the proof was made for a different set of keys than the ${sortedKeys.length} distinct keys given`,
      );
    }
  }
  // LEB128 length of the shape bits in bytes, minimal, at most 4 bytes.
  let at = FIXED_HEADER_BYTES;
  let shapeBytes = 0;
  for (let i = 0; ; i++) {
    if (i === MAX_LENGTH_BYTES) {
      throw new ProofError(
        "MALFORMED",
        `the shape length field runs past ${MAX_LENGTH_BYTES} bytes`,
      );
    }
    if (at >= proof.length)
      throw new ProofError("TRUNCATED", "the proof ends inside the shape length");
    const byte = proof[at++]!;
    shapeBytes |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) {
      if (byte === 0 && i > 0) {
        throw new ProofError("MALFORMED", "the shape length is not minimally encoded");
      }
      break;
    }
  }
  if (shapeBytes > proof.length - at) {
    throw new ProofError(
      "TRUNCATED",
      `the shape needs ${shapeBytes} bytes but only ${proof.length - at} follow the header`,
    );
  }
  return { offset: at, shapeBytes };
}

function resolveHasher(options: VerifyProofOptions | KeyScheme | undefined): Hasher {
  if (options === undefined) return getHasher("sha256");
  if (typeof options === "string") return getHasher(hashOfScheme(options, "options"));
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new ProofError(
      "INVALID_OPTION",
      `verifyProof: options must be an object or a key scheme, got ${describeValue(options)}`,
    );
  }
  assertKnownOptions(options, VERIFY_PROOF_OPTION_KEYS, "verifyProof", ProofError);
  let name: HashFunctionName | undefined;
  if (options.scheme !== undefined) name = hashOfScheme(options.scheme, "options.scheme");
  if (options.hash !== undefined) {
    if (options.hash !== "sha256" && options.hash !== "blake3") {
      throw new ProofError(
        "INVALID_OPTION",
        `verifyProof: unknown hash function ${describeValue(options.hash)} in options.hash (expected 'sha256' or 'blake3')`,
      );
    }
    if (name !== undefined && name !== options.hash) {
      throw new ProofError(
        "INVALID_OPTION",
        `hash '${options.hash}' contradicts scheme '${options.scheme}'`,
      );
    }
    name = options.hash;
  }
  const hasher = options.hasher;
  if (hasher !== undefined) {
    if (!isHasher(hasher)) {
      throw new ProofError(
        "INVALID_OPTION",
        `verifyProof: options.hasher is not a Hasher, got ${describeValue(hasher)}`,
      );
    }
    if (name !== undefined && name !== hasher.name) {
      throw new ProofError(
        "INVALID_OPTION",
        `hasher '${hasher.name}' contradicts the requested hash function '${name}'`,
      );
    }
    return hasher;
  }
  return getHasher(name ?? "sha256");
}

function hashOfScheme(scheme: KeyScheme, where: string): HashFunctionName {
  if (!KEY_SCHEMES.includes(scheme)) {
    throw new ProofError(
      "INVALID_OPTION",
      `verifyProof: unknown key scheme ${describeValue(scheme)} in ${where} (expected one of ${KEY_SCHEMES.join(", ")})`,
    );
  }
  return hashFunctionOfScheme(scheme);
}
