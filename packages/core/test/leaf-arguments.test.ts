import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import { toBytes } from "../src/bytes/hex.js";
import { compareBytes, equalBytes } from "../src/bytes/index.js";
import { isZero } from "../src/bytes/is-zero.js";
import {
  accountFromLeaves,
  BasicDataError,
  basicDataBalanceField,
  CodeChunkError,
  chunkCount,
  chunkifyCode,
  codeChunkLocation,
  codeFromChunks,
  hashFunctionOfScheme,
  isBigEndianScheme,
  isHeaderStorageSlot,
  KeyDeriver,
  storageSlotLocation,
  storageSlotToBytes,
  toStorageSlot,
  unpackBasicData,
} from "../src/embedding/index.js";
import { createBlake3Hasher, hashInternal, hashLeafValue, hashStem } from "../src/hash/index.js";
import {
  accountStem,
  BinaryTree,
  BintrieError,
  basicDataKey,
  bytesToHex,
  codeChunkKey,
  codeHash,
  codeHashKey,
  decodeWitness,
  encodeWitness,
  getHasher,
  HashError,
  hexToBytes,
  KeyDerivationError,
  openWitness,
  packBasicData,
  StoreError,
  storageSlotKey,
  TreeError,
  treeKey,
  treeStem,
  type Witness,
} from "../src/index.js";
import { ProofError, prove, verifyProof } from "../src/proof/index.js";
import { createSha256Hasher } from "../src/sha256/index.js";
import { bytesToKeyString, keyStringToBytes } from "../src/store/bytes-order.js";
import {
  decodeRootRecord,
  encodeRootRecord,
  type RootRecord,
  STORE_FORMAT_VERSION,
} from "../src/store/index.js";

// Every leaf function of the public API, given each kind of wrong value in place of each
// documented argument, throws the family's typed error with a stable code and a message naming
// the argument (never a raw TypeError from our code or from @noble/hashes).

type ErrorClass = abstract new (...args: never[]) => Error;

/** The kinds of wrong value every argument is tried with. */
const BAD_KINDS = {
  null: null,
  undefined: undefined,
  number: 7,
  string: "0x00",
  array: [1, 2],
  bigint: 5n,
  object: { a: 1 },
} as const;
type Kind = keyof typeof BAD_KINDS;

interface Case {
  /** What is called, for the test name. */
  readonly name: string;
  readonly call: (bad: never) => unknown;
  readonly error: ErrorClass;
  readonly code: string;
  /** A fragment naming the argument, expected in the message. */
  readonly names: string;
  /** Kinds that are valid for this argument (or that it documents another outcome for). */
  readonly skip?: readonly Kind[];
}

const S = "sha256-be";
const A = "0x00000000000000000000000000000000000000aa";
const B32 = new Uint8Array(32);
const B31 = new Uint8Array(31);
const sha = getHasher("sha256");
const blake = createBlake3Hasher();
const basic = { nonce: 1n, balance: 2n, codeSize: 3 };

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

function expectError(error: unknown, Class: ErrorClass, code: string, names: string): void {
  expect(error).toBeInstanceOf(BintrieError);
  expect(error).toBeInstanceOf(Class);
  expect((error as BintrieError).code).toBe(code);
  expect((error as Error).message).toContain(names);
}

const key = (name: string, call: Case["call"], code: string, names: string, skip?: Kind[]) =>
  ({ name, call, error: KeyDerivationError, code, names, skip }) satisfies Case;

const cases: Case[] = [
  // Keys: every argument of the one-call derivations and of KeyDeriver.
  key("treeKey scheme", (x) => treeKey(x, A, 0n, 0), "INVALID_KEY_SCHEME", "key scheme"),
  key("treeKey address", (x) => treeKey(S, x, 0n, 0), "INVALID_ADDRESS", "address"),
  key("treeKey treeIndex", (x) => treeKey(S, A, x, 0), "INVALID_TREE_INDEX", "tree index", [
    "bigint",
  ]),
  key("treeKey subIndex", (x) => treeKey(S, A, 0n, x), "INVALID_SUB_INDEX", "sub index", [
    "number",
  ]),
  key("treeStem scheme", (x) => treeStem(x, A, 0n), "INVALID_KEY_SCHEME", "key scheme"),
  key("treeStem address", (x) => treeStem(S, x, 0n), "INVALID_ADDRESS", "address"),
  key("treeStem treeIndex", (x) => treeStem(S, A, x), "INVALID_TREE_INDEX", "tree index", [
    "bigint",
  ]),
  key("accountStem scheme", (x) => accountStem(x, A), "INVALID_KEY_SCHEME", "key scheme"),
  key("accountStem address", (x) => accountStem(S, x), "INVALID_ADDRESS", "address"),
  key("basicDataKey scheme", (x) => basicDataKey(x, A), "INVALID_KEY_SCHEME", "key scheme"),
  key("basicDataKey address", (x) => basicDataKey(S, x), "INVALID_ADDRESS", "address"),
  key("codeHashKey scheme", (x) => codeHashKey(x, A), "INVALID_KEY_SCHEME", "key scheme"),
  key("codeHashKey address", (x) => codeHashKey(S, x), "INVALID_ADDRESS", "address"),
  key("storageSlotKey scheme", (x) => storageSlotKey(x, A, 1n), "INVALID_KEY_SCHEME", "key scheme"),
  key("storageSlotKey address", (x) => storageSlotKey(S, x, 1n), "INVALID_ADDRESS", "address"),
  key("storageSlotKey slot", (x) => storageSlotKey(S, A, x), "INVALID_SLOT", "storage slot", [
    "bigint",
    "string",
  ]),
  key("codeChunkKey scheme", (x) => codeChunkKey(x, A, 0), "INVALID_KEY_SCHEME", "key scheme"),
  key("codeChunkKey address", (x) => codeChunkKey(S, x, 0), "INVALID_ADDRESS", "address"),
  key(
    "codeChunkKey chunkIndex",
    (x) => codeChunkKey(S, A, x),
    "INVALID_CHUNK_INDEX",
    "chunk index",
    ["number", "bigint"],
  ),
  key("new KeyDeriver scheme", (x) => new KeyDeriver(x), "INVALID_KEY_SCHEME", "key scheme"),
  key("new KeyDeriver hasher", (x) => new KeyDeriver(S, x), "HASHER_MISMATCH", "Hasher", [
    "undefined",
  ]),
  key(
    "KeyDeriver.treeKey address",
    (x) => new KeyDeriver(S).treeKey(x, 0n, 0),
    "INVALID_ADDRESS",
    "address",
  ),
  key("hashFunctionOfScheme", (x) => hashFunctionOfScheme(x), "INVALID_KEY_SCHEME", "key scheme"),
  key("isBigEndianScheme", (x) => isBigEndianScheme(x), "INVALID_KEY_SCHEME", "key scheme"),
  key("toStorageSlot", (x) => toStorageSlot(x), "INVALID_SLOT", "storage slot", [
    "bigint",
    "string",
  ]),
  key("storageSlotToBytes slot", (x) => storageSlotToBytes(x), "INVALID_SLOT", "storage slot", [
    "bigint",
  ]),
  key("storageSlotToBytes out", (x) => storageSlotToBytes(1n, x), "INVALID_SLOT", "output buffer", [
    "undefined",
  ]),
  key("isHeaderStorageSlot", (x) => isHeaderStorageSlot(x), "INVALID_SLOT", "storage slot", [
    "bigint",
  ]),
  key("storageSlotLocation", (x) => storageSlotLocation(x), "INVALID_SLOT", "storage slot", [
    "bigint",
  ]),
  key("codeChunkLocation", (x) => codeChunkLocation(x), "INVALID_CHUNK_INDEX", "chunk index", [
    "number",
    "bigint",
  ]),

  // BASIC_DATA.
  {
    name: "packBasicData input",
    call: (x) => packBasicData(x),
    error: BasicDataError,
    code: "INVALID_ARGUMENT",
    names: "BASIC_DATA input",
    skip: ["object"], // an object: its fields are checked one by one, below
  },
  {
    name: "packBasicData nonce",
    call: (x) => packBasicData({ ...basic, nonce: x }),
    error: BasicDataError,
    code: "INVALID_NONCE",
    names: "nonce",
    skip: ["bigint"],
  },
  {
    name: "packBasicData balance",
    call: (x) => packBasicData({ ...basic, balance: x }),
    error: BasicDataError,
    code: "INVALID_BALANCE",
    names: "balance",
    skip: ["bigint"],
  },
  {
    name: "packBasicData codeSize",
    call: (x) => packBasicData({ ...basic, codeSize: x }),
    error: BasicDataError,
    code: "INVALID_CODE_SIZE",
    names: "code size",
    skip: ["number"],
  },
  {
    name: "packBasicData version",
    call: (x) => packBasicData({ ...basic, version: x }),
    error: BasicDataError,
    code: "INVALID_VERSION",
    names: "version",
    skip: ["number", "undefined"],
  },
  {
    name: "packBasicData out",
    call: (x) => packBasicData(basic, x),
    error: BasicDataError,
    code: "INVALID_LENGTH",
    names: "output",
    skip: ["undefined"],
  },
  {
    name: "unpackBasicData",
    call: (x) => unpackBasicData(x),
    error: BasicDataError,
    code: "INVALID_LENGTH",
    names: "BASIC_DATA value",
  },
  {
    name: "basicDataBalanceField",
    call: (x) => basicDataBalanceField(x),
    error: BasicDataError,
    code: "INVALID_BALANCE",
    names: "balance",
    skip: ["bigint"],
  },
  {
    name: "accountFromLeaves basicData",
    call: (x) => accountFromLeaves(x, undefined),
    error: BasicDataError,
    code: "INVALID_LENGTH",
    names: "BASIC_DATA leaf",
  },
  {
    name: "accountFromLeaves codeHash",
    call: (x) => accountFromLeaves(B32, x),
    error: BasicDataError,
    code: "INVALID_LENGTH",
    names: "CODE_HASH leaf",
    skip: ["undefined"],
  },

  // Code.
  {
    name: "chunkCount",
    call: (x) => chunkCount(x),
    error: CodeChunkError,
    code: "INVALID_CODE_SIZE",
    names: "code size",
    skip: ["number"],
  },
  {
    name: "chunkifyCode",
    call: (x) => chunkifyCode(x),
    error: CodeChunkError,
    code: "INVALID_CODE",
    names: "code must be a Uint8Array",
  },
  {
    name: "codeFromChunks chunks",
    call: (x) => codeFromChunks(x, 1),
    error: CodeChunkError,
    code: "INVALID_CHUNKS",
    names: "chunks",
  },
  {
    name: "codeFromChunks codeSize",
    call: (x) => codeFromChunks(B32, x),
    error: CodeChunkError,
    code: "INVALID_CODE_SIZE",
    names: "code size",
    skip: ["number"],
  },
  {
    name: "codeHash",
    call: (x) => codeHash(x),
    error: CodeChunkError,
    code: "INVALID_CODE",
    names: "code must be a Uint8Array",
  },

  // Hashing.
  {
    name: "getHasher",
    call: (x) => getHasher(x),
    error: HashError,
    code: "UNKNOWN_HASH_FUNCTION",
    names: "hash function",
  },
  ...[
    ["sha256", sha],
    ["blake3", blake],
  ].flatMap(([label, h]) => {
    const hasher = h as typeof sha;
    return [
      {
        name: `${label} digest`,
        call: (x: never) => hasher.digest(x),
        error: HashError,
        code: "INVALID_ARGUMENT",
        names: "message",
      },
      {
        name: `${label} hash64Batch src`,
        call: (x: never) => hasher.hash64Batch(x, 0, 1, new Uint8Array(32), 0),
        error: HashError,
        code: "INVALID_ARGUMENT",
        names: "src",
      },
      {
        name: `${label} hash32Batch dst`,
        call: (x: never) => hasher.hash32Batch(B32, 0, 1, x, 0),
        error: HashError,
        code: "INVALID_ARGUMENT",
        names: "dst",
      },
      {
        name: `${label} hash64Batch count`,
        call: (x: never) => hasher.hash64Batch(new Uint8Array(64), 0, x, B32, 0),
        error: HashError,
        code: "BATCH_OUT_OF_RANGE",
        names: "count",
        skip: ["number"] as Kind[],
      },
      {
        name: `${label} hash32Batch srcOffset`,
        call: (x: never) => hasher.hash32Batch(B32, x, 1, new Uint8Array(32), 0),
        error: HashError,
        code: "BATCH_OUT_OF_RANGE",
        names: "srcOffset",
      },
    ] satisfies Case[];
  }),
  {
    name: "createSha256Hasher kernel",
    call: (x) => createSha256Hasher(x),
    error: HashError,
    code: "INVALID_OPTION",
    names: "kernel",
    skip: ["undefined"],
  },
  {
    name: "hashLeafValue hasher",
    call: (x) => hashLeafValue(x, B32),
    error: HashError,
    code: "INVALID_ARGUMENT",
    names: "hasher",
  },
  {
    name: "hashLeafValue value",
    call: (x) => hashLeafValue(sha, x),
    error: HashError,
    code: "INVALID_LENGTH",
    names: "leaf value",
  },
  {
    name: "hashLeafValue out",
    call: (x) => hashLeafValue(sha, B32, x),
    error: HashError,
    code: "INVALID_LENGTH",
    names: "output buffer",
    skip: ["undefined"],
  },
  {
    name: "hashInternal hasher",
    call: (x) => hashInternal(x, B32, B32),
    error: HashError,
    code: "INVALID_ARGUMENT",
    names: "hasher",
  },
  {
    name: "hashInternal left",
    call: (x) => hashInternal(sha, x, B32),
    error: HashError,
    code: "INVALID_LENGTH",
    names: "left child hash",
  },
  {
    name: "hashInternal right",
    call: (x) => hashInternal(sha, B32, x),
    error: HashError,
    code: "INVALID_LENGTH",
    names: "right child hash",
  },
  {
    name: "hashInternal out",
    call: (x) => hashInternal(sha, B32, B32, x),
    error: HashError,
    code: "INVALID_LENGTH",
    names: "output buffer",
    skip: ["undefined"],
  },
  {
    name: "hashStem hasher",
    call: (x) => hashStem(x, B31, []),
    error: HashError,
    code: "INVALID_ARGUMENT",
    names: "hasher",
  },
  {
    name: "hashStem stem",
    call: (x) => hashStem(sha, x, []),
    error: HashError,
    code: "INVALID_LENGTH",
    names: "stem must be 31 bytes",
  },
  {
    name: "hashStem values",
    call: (x) => hashStem(sha, B31, x),
    error: HashError,
    code: "INVALID_ARGUMENT",
    names: "stem values",
    skip: ["array", "object"], // slots and sparse values: their contents are checked, below
  },
  {
    name: "hashStem a dense slot",
    call: (x) => hashStem(sha, B31, [x]),
    error: HashError,
    code: "INVALID_LENGTH",
    names: "stem value at subindex 0",
    skip: ["null", "undefined"], // absent slots
  },
  {
    name: "hashStem sparse subindices",
    call: (x) => hashStem(sha, B31, { subindices: x, values: B32, count: 1 }),
    error: HashError,
    code: "INVALID_SUBINDICES",
    names: "subindices",
    skip: ["array"],
  },
  {
    name: "hashStem sparse count",
    call: (x) => hashStem(sha, B31, { subindices: [0], values: B32, count: x }),
    error: HashError,
    code: "INVALID_SUBINDICES",
    names: "count",
  },
  {
    name: "hashStem sparse values",
    call: (x) => hashStem(sha, B31, { subindices: [0], values: x, count: 1 }),
    error: HashError,
    code: "INVALID_LENGTH",
    names: "packed values",
  },
  {
    name: "hashStem out",
    call: (x) => hashStem(sha, B31, [], x),
    error: HashError,
    code: "INVALID_LENGTH",
    names: "output buffer",
    skip: ["undefined"],
  },

  // Bytes.
  {
    name: "bytesToHex",
    call: (x) => bytesToHex(x),
    error: BintrieError,
    code: "INVALID_ARGUMENT",
    names: "bytesToHex: bytes",
  },
  {
    name: "hexToBytes",
    call: (x) => hexToBytes(x, "the thing"),
    error: BintrieError,
    code: "INVALID_HEX",
    names: "the thing",
    skip: ["string"],
  },
  {
    name: "toBytes",
    call: (x) => toBytes(x, "the thing"),
    error: BintrieError,
    code: "INVALID_HEX",
    names: "the thing",
    skip: ["string"],
  },
  {
    name: "isZero bytes",
    call: (x) => isZero(x),
    error: BintrieError,
    code: "INVALID_ARGUMENT",
    names: "isZero: bytes",
  },
  {
    name: "isZero offset",
    call: (x) => isZero(B32, x),
    error: BintrieError,
    code: "INVALID_ARGUMENT",
    names: "isZero: offset",
    skip: ["number", "undefined"],
  },
  {
    name: "isZero length",
    call: (x) => isZero(B32, 0, x),
    error: BintrieError,
    code: "INVALID_ARGUMENT",
    names: "isZero: length",
    skip: ["number", "undefined"],
  },
  {
    name: "compareBytes a",
    call: (x) => compareBytes(x, B32),
    error: StoreError,
    code: "INVALID_ARGUMENT",
    names: "compareBytes: a",
  },
  {
    name: "compareBytes b",
    call: (x) => compareBytes(B32, x),
    error: StoreError,
    code: "INVALID_ARGUMENT",
    names: "compareBytes: b",
  },
  {
    name: "equalBytes a",
    call: (x) => equalBytes(x, B32),
    error: StoreError,
    code: "INVALID_ARGUMENT",
    names: "equalBytes: a",
  },
  {
    name: "equalBytes b",
    call: (x) => equalBytes(B32, x),
    error: StoreError,
    code: "INVALID_ARGUMENT",
    names: "equalBytes: b",
  },
  {
    name: "bytesToKeyString",
    call: (x) => bytesToKeyString(x),
    error: StoreError,
    code: "INVALID_ARGUMENT",
    names: "bytesToKeyString: bytes",
  },
  {
    name: "keyStringToBytes",
    call: (x) => keyStringToBytes(x),
    error: StoreError,
    code: "INVALID_ARGUMENT",
    names: "keyStringToBytes: s",
    skip: ["string"],
  },

  // Root record.
  {
    name: "encodeRootRecord record",
    call: (x) => encodeRootRecord(x),
    error: StoreError,
    code: "INVALID_ROOT_RECORD",
    names: "root record",
  },
  {
    name: "decodeRootRecord",
    call: (x) => decodeRootRecord(x),
    error: StoreError,
    code: "INVALID_ROOT_RECORD",
    names: "root record",
  },
];

/** A small witness: a 4-key tree at group depth 1, one read recorded. */
function smallWitness(): Witness {
  const tree = new BinaryTree({ groupDepth: 1 });
  const keys = [0x00, 0x40, 0x80, 0xc0].map((b) => new Uint8Array(32).fill(b));
  for (const k of keys) tree.put(k, sha256(k));
  tree.beginWitness();
  tree.get(keys[0]!);
  return tree.endWitness();
}
const witness = smallWitness();

cases.push(
  ...(
    [
      ["openWitness", (w: never) => openWitness(w)],
      ["encodeWitness", (w: never) => encodeWitness(w)],
    ] as const
  ).flatMap(([label, open]) =>
    (
      [
        ["witness", (x: never) => open(x), "witness", []],
        ["root", (x: never) => open({ ...witness, root: x } as never), "witness.root", []],
        ["scheme", (x: never) => open({ ...witness, scheme: x } as never), "key scheme", []],
        [
          "groupDepth",
          (x: never) => open({ ...witness, groupDepth: x } as never),
          "group depth",
          ["number"],
        ],
        [
          "nodes",
          (x: never) => open({ ...witness, nodes: x } as never),
          "witness.nodes",
          ["array"],
        ],
        ["a node", (x: never) => open({ ...witness, nodes: [x] } as never), "node 0", []],
      ] as const
    ).map(
      ([what, call, names, skip]): Case => ({
        name: `${label} ${what}`,
        call,
        error: TreeError,
        code: "MALFORMED_WITNESS",
        names,
        skip: skip as readonly Kind[],
      }),
    ),
  ),
  {
    name: "openWitness options",
    call: (x) => openWitness(witness, x),
    error: TreeError,
    code: "INVALID_OPTION",
    names: "options",
    skip: ["undefined"],
  },
  {
    name: "decodeWitness",
    call: (x) => decodeWitness(x),
    error: TreeError,
    code: "MALFORMED_WITNESS",
    names: "witness bytes",
  },
);

// Proofs: a real proof of one key, so each row breaks exactly one argument.
const proofTree = new BinaryTree();
const proofKey = new Uint8Array(32).fill(1);
proofTree.put(proofKey, new Uint8Array(32).fill(2));
const proofRoot = proofTree.hash();
const proof = await prove(proofTree, [proofKey]);
cases.push(
  {
    name: "verifyProof root",
    call: (x) => verifyProof(x, [proofKey], proof),
    error: ProofError,
    code: "INVALID_ROOT",
    names: "root",
  },
  {
    name: "verifyProof keys",
    call: (x) => verifyProof(proofRoot, x, proof),
    error: ProofError,
    code: "INVALID_KEY",
    names: "key",
  },
  {
    name: "verifyProof proof",
    call: (x) => verifyProof(proofRoot, [proofKey], x),
    error: ProofError,
    code: "MALFORMED",
    names: "proof must be a Uint8Array",
  },
  {
    name: "verifyProof options",
    call: (x) => verifyProof(proofRoot, [proofKey], proof, x),
    error: ProofError,
    code: "INVALID_OPTION",
    names: "options",
    skip: ["undefined"],
  },
  ...(["scheme", "hash", "hasher"] as const).map(
    (option): Case => ({
      name: `verifyProof options.${option}`,
      call: (x) => verifyProof(proofRoot, [proofKey], proof, { [option]: x }),
      error: ProofError,
      code: "INVALID_OPTION",
      names: `options.${option}`,
      skip: ["undefined"],
    }),
  ),
);

describe("every leaf function refuses each wrong kind of argument with a typed error", () => {
  for (const c of cases) {
    for (const [kind, value] of Object.entries(BAD_KINDS) as [Kind, unknown][]) {
      if (c.skip?.includes(kind)) continue;
      it(`${c.name}: ${kind}`, () => {
        const error = thrown(() => c.call(value as never));
        expectError(error, c.error, c.code, c.names);
      });
    }
  }

  it("a symbol, which a template string cannot print, is named too", () => {
    const symbol = Symbol("s") as never;
    expectError(
      thrown(() => treeKey(S, A, 0n, symbol)),
      KeyDerivationError,
      "INVALID_SUB_INDEX",
      "sub index",
    );
    expectError(
      thrown(() => packBasicData({ ...basic, codeSize: symbol })),
      BasicDataError,
      "INVALID_CODE_SIZE",
      "symbol",
    );
    expectError(
      thrown(() => getHasher(symbol)),
      HashError,
      "UNKNOWN_HASH_FUNCTION",
      "symbol",
    );
  });

  it("the reviewer's reproductions: bigints in messages no longer break them", () => {
    expectError(
      thrown(() => treeKey(5n as never, A, 0n, 0)),
      KeyDerivationError,
      "INVALID_KEY_SCHEME",
      "5n",
    );
    expectError(
      thrown(() => getHasher(5n as never)),
      HashError,
      "UNKNOWN_HASH_FUNCTION",
      "5n",
    );
    expectError(
      thrown(() => verifyProof(proofRoot, [proofKey], proof, { hash: 5n as never })),
      ProofError,
      "INVALID_OPTION",
      "5n",
    );
    expectError(
      thrown(() => verifyProof(proofRoot, [proofKey], proof, { scheme: 5n as never })),
      ProofError,
      "INVALID_OPTION",
      "5n",
    );
  });

  it("valid input still works", () => {
    expect(codeHash(new Uint8Array(0)).length).toBe(32);
    expect(isZero(Uint8Array.of(0, 1), 0, 1)).toBe(true);
    expect(isZero(Uint8Array.of(0, 1), 1)).toBe(false);
    expect(isZero(Uint8Array.of(1, 0), 1, undefined)).toBe(true);
    expect(compareBytes(Uint8Array.of(1), Uint8Array.of(1, 0))).toBeLessThan(0);
    expect(bytesToHex(Uint8Array.of(0, 255))).toBe("0x00ff");
    expect(toStorageSlot(B32)).toBe(B32);
    expect(verifyProof(proofRoot, [proofKey], proof, { scheme: "sha256-le" })[0]).toEqual(
      new Uint8Array(32).fill(2),
    );
    expect(createSha256Hasher().digest(new Uint8Array(0))).toEqual(sha.digest(new Uint8Array(0)));
  });
});

describe("openWitness refuses what encodeWitness refuses", () => {
  it("a duplicate node path, naming it (the garbage copy is not silently dropped)", () => {
    const first = witness.nodes[0]!;
    const duplicated = {
      ...witness,
      nodes: [{ path: first.path, blob: Uint8Array.of(9, 9, 9) }, ...witness.nodes],
    };
    for (const call of [() => openWitness(duplicated), () => encodeWitness(duplicated)]) {
      const error = thrown(call);
      expectError(error, TreeError, "MALFORMED_WITNESS", "appears twice");
      expect((error as Error).message).toContain(
        first.path.length === 0 ? "(root)" : bytesToHex(first.path),
      );
    }
    // The witness itself still opens.
    expect(openWitness(witness).hash()).toEqual(witness.root);
  });

  it("an unknown option key", () => {
    expectError(
      thrown(() => openWitness(witness, { deletionmode: "zero" } as never)),
      TreeError,
      "INVALID_OPTION",
      "deletionmode",
    );
  });
});

describe("encodeRootRecord checks every field; decodeRootRecord still reads what it writes", () => {
  const valid: RootRecord = {
    root: new Uint8Array(32).fill(7),
    groupDepth: 5,
    scheme: "blake3-le",
    extra: Uint8Array.of(1, 2, 3),
  };

  it("round-trips every valid field value", () => {
    for (const groupDepth of [0, 1, 8]) {
      for (const extra of [undefined, new Uint8Array(0), Uint8Array.of(9)]) {
        const record = { ...valid, groupDepth, extra };
        const back = decodeRootRecord(encodeRootRecord(record));
        expect(back).toEqual({ ...record, extra: extra ?? new Uint8Array(0) });
      }
    }
    const bytes = encodeRootRecord(valid);
    expect(bytes[4]).toBe(STORE_FORMAT_VERSION);
    expect(decodeRootRecord(bytes)).toEqual(valid);
  });

  const bad: [string, Partial<Record<keyof RootRecord, unknown>>, string][] = [
    ["a 31-byte root", { root: new Uint8Array(31) }, "root must be a 32-byte Uint8Array"],
    ["a 33-byte root", { root: new Uint8Array(33) }, "root must be a 32-byte Uint8Array"],
    ["a hex root", { root: bytesToHex(new Uint8Array(32)) }, "root must be"],
    ["groupDepth 300", { groupDepth: 300 }, "groupDepth"],
    ["groupDepth 9", { groupDepth: 9 }, "groupDepth"],
    ["groupDepth -1", { groupDepth: -1 }, "groupDepth"],
    ["groupDepth 1.5", { groupDepth: 1.5 }, "groupDepth"],
    ["groupDepth NaN", { groupDepth: Number.NaN }, "groupDepth"],
    ["an unknown scheme", { scheme: "sha512-be" }, "scheme"],
    ["a missing scheme", { scheme: undefined }, "scheme"],
  ];
  for (const [label, change, names] of bad) {
    it(`refuses ${label}`, () => {
      expectError(
        thrown(() => encodeRootRecord({ ...valid, ...change } as never)),
        StoreError,
        "INVALID_ROOT_RECORD",
        names,
      );
    });
  }

  for (const [kind, value] of Object.entries(BAD_KINDS) as [Kind, unknown][]) {
    for (const field of ["root", "groupDepth", "scheme", "extra"] as const) {
      if (field === "extra" && kind === "undefined") continue;
      if (field === "groupDepth" && kind === "number") continue;
      it(`refuses ${field}: ${kind}`, () => {
        expectError(
          thrown(() => encodeRootRecord({ ...valid, [field]: value } as never)),
          StoreError,
          "INVALID_ROOT_RECORD",
          field,
        );
      });
    }
  }
});
