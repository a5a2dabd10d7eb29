import { BintrieError } from "@bintrie/codec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codeChunkLocation } from "../src/embedding/code-chunk-location.js";
import {
  BASIC_DATA_LEAF_KEY,
  CODE_HASH_LEAF_KEY,
  CODE_OFFSET,
  HEADER_STORAGE_OFFSET,
  MAIN_STORAGE_OFFSET,
  STEM_SUBTREE_WIDTH,
} from "../src/embedding/constants.js";
import { KeyDerivationError } from "../src/embedding/errors.js";
import { KeyDeriver, sharedKeyDeriver } from "../src/embedding/key-deriver.js";
import {
  DEFAULT_KEY_SCHEME,
  hashFunctionOfScheme,
  isBigEndianScheme,
  KEY_SCHEMES,
  type KeyScheme,
} from "../src/embedding/key-scheme.js";
import {
  isHeaderStorageSlot,
  storageSlotLocation,
  storageSlotToBytes,
} from "../src/embedding/storage-slot.js";
import {
  accountStem,
  basicDataKey,
  codeChunkKey,
  codeHashKey,
  storageSlotKey,
  treeKey,
  treeStem,
} from "../src/embedding/tree-key.js";
import { getHasher } from "../src/hash/get-hasher.js";
import type { Sha256BatchKernel } from "../src/hash/hasher.js";
import { createSha256Hasher } from "../src/hash/sha256-hasher.js";
import { jsSha256Kernel } from "../src/sha256/js-kernel.js";
import { expectTypedError } from "./helpers/expect-error.js";
import {
  bytesToHex,
  fencedBlockAfter,
  hexToBytes,
  loadEthereumjsVectors,
  loadGethSpec,
  loadReferenceVectors,
  VARIANTS,
} from "./helpers/vectors.js";

const vectors = loadReferenceVectors();
const { raw_get_tree_key: rawVectors, account_embedding: accountVectors } =
  vectors.tree_key_vectors;

const hex = bytesToHex;

function expectKeyError(fn: () => unknown, code: string, fragment: string): void {
  expectTypedError(fn, KeyDerivationError, code, fragment);
}

describe("key schemes", () => {
  it("cover the four vector variants, sha256-be by default", () => {
    expect([...KEY_SCHEMES].sort()).toEqual([...VARIANTS].sort());
    expect(Object.keys(vectors.variants).sort()).toEqual([...VARIANTS].sort());
    expect(DEFAULT_KEY_SCHEME).toBe("sha256-be");
    expect(KEY_SCHEMES.map(hashFunctionOfScheme)).toEqual(
      KEY_SCHEMES.map((s) => (s.startsWith("sha256") ? "sha256" : "blake3")),
    );
    expect(KEY_SCHEMES.map(isBigEndianScheme)).toEqual(KEY_SCHEMES.map((s) => s.endsWith("-be")));
  });

  it("constants match EIP-7864", () => {
    expect([
      BASIC_DATA_LEAF_KEY,
      CODE_HASH_LEAF_KEY,
      HEADER_STORAGE_OFFSET,
      CODE_OFFSET,
      STEM_SUBTREE_WIDTH,
    ]).toEqual([0, 1, 64, 128, 256]);
    expect(MAIN_STORAGE_OFFSET).toBe(256n ** 31n);
  });
});

describe("tree_key_vectors.raw_get_tree_key (every entry, every variant)", () => {
  it("has 72 entries", () => {
    expect(rawVectors.length).toBe(72);
  });

  describe.each(VARIANTS)("%s", (variant) => {
    const deriver = new KeyDeriver(variant);

    it.each(rawVectors.map((v, i) => [i, v.address, v.tree_index, v.sub_index, v] as const))(
      "#%i %s tree_index %s sub %i",
      (_i, address, treeIndex, subIndex, v) => {
        const addr = hexToBytes(address);
        const key = treeKey(variant, addr, BigInt(treeIndex), subIndex);
        expect(hex(key)).toBe(v.key[variant]);
        expect(hex(deriver.treeKey(addr, BigInt(treeIndex), subIndex))).toBe(v.key[variant]);
        expect(hex(treeStem(variant, addr, BigInt(treeIndex)))).toBe(v.key[variant].slice(0, 64));
      },
    );
  });
});

describe("tree_key_vectors.account_embedding (every entry, every variant)", () => {
  it("has 6 addresses x (2 header keys, 16 slots, 8 chunks)", () => {
    expect(accountVectors.length).toBe(6);
    for (const account of accountVectors) {
      expect(account.storage_slots.length).toBe(16);
      expect(account.code_chunks.length).toBe(8);
    }
  });

  describe.each(VARIANTS)("%s", (variant) => {
    const deriver = new KeyDeriver(variant);

    describe.each(accountVectors.map((a) => [a.address, a] as const))("%s", (_address, account) => {
      const address = hexToBytes(account.address);

      it("basic_data, code_hash and account stem", () => {
        expect(hex(basicDataKey(variant, address))).toBe(account.basic_data[variant]);
        expect(hex(codeHashKey(variant, address))).toBe(account.code_hash[variant]);
        expect(hex(deriver.basicDataKey(address))).toBe(account.basic_data[variant]);
        expect(hex(deriver.codeHashKey(address))).toBe(account.code_hash[variant]);
        expect(hex(accountStem(variant, address))).toBe(account.basic_data[variant].slice(0, 64));
      });

      it.each(account.storage_slots.map((s) => [s.slot, s] as const))(
        "storage slot %s",
        (_slot, s) => {
          const slotBytes = hexToBytes(s.slot);
          const slotNumber = BigInt(s.slot);
          expect(hex(storageSlotKey(variant, address, slotBytes))).toBe(s.key[variant]);
          expect(hex(storageSlotKey(variant, address, slotNumber))).toBe(s.key[variant]);
          expect(hex(deriver.storageSlotKey(address, slotBytes))).toBe(s.key[variant]);
          expect(storageSlotLocation(slotBytes)).toEqual({
            treeIndex: BigInt(s.tree_index),
            subIndex: s.sub_index,
          });
          expect(storageSlotLocation(slotNumber)).toEqual({
            treeIndex: BigInt(s.tree_index),
            subIndex: s.sub_index,
          });
          expect(isHeaderStorageSlot(slotNumber)).toBe(slotNumber < 64n);
        },
      );

      it.each(account.code_chunks.map((c) => [c.chunk_id, c] as const))(
        "code chunk %i",
        (chunkId, c) => {
          expect(hex(codeChunkKey(variant, address, chunkId))).toBe(c.key[variant]);
          expect(hex(codeChunkKey(variant, address, BigInt(chunkId)))).toBe(c.key[variant]);
          expect(hex(deriver.codeChunkKey(address, chunkId))).toBe(c.key[variant]);
          expect(codeChunkLocation(chunkId)).toEqual({
            treeIndex: BigInt(c.tree_index),
            subIndex: c.sub_index,
          });
        },
      );
    });
  });
});

/** Parses a §6.2 slot like "00..3f", "0100..00" or "ff..ff": prefix bytes, filler, suffix bytes. */
function parseSpecSlot(text: string): Uint8Array {
  const [prefix, suffix] = text.split("..") as [string, string];
  const head = hexToBytes(prefix);
  const tail = hexToBytes(suffix);
  const slot = new Uint8Array(32).fill(head[head.length - 1]!);
  slot.set(head, 0);
  slot.set(tail, 32 - tail.length);
  return slot;
}

describe("geth spec §6.2 key-derivation table (sha256-be)", () => {
  const lines = fencedBlockAfter(
    loadGethSpec(),
    "Key derivation (current SHA-256 big-endian rule):",
  );
  type Row = { address: string; label: string; arg: string; key: string };
  const rows: Row[] = [];
  const stems: { address: string; treeIndex: bigint; stem: string }[] = [];
  let address = "";
  for (const line of lines) {
    const stemsLine = /^address ([0-9a-f]{40}): tree_index (\d+) stem ([0-9a-f]{62}) ;$/.exec(line);
    if (stemsLine) {
      address = stemsLine[1]!;
      stems.push({ address, treeIndex: BigInt(stemsLine[2]!), stem: stemsLine[3]! });
      continue;
    }
    const nextStem = /^\s+tree_index (\d+) stem ([0-9a-f]{62})$/.exec(line);
    if (nextStem) {
      stems.push({ address, treeIndex: BigInt(nextStem[1]!), stem: nextStem[2]! });
      continue;
    }
    const addressLine = /^address ([0-9a-f]{40})$/.exec(line);
    if (addressLine) {
      address = addressLine[1]!;
      continue;
    }
    const row = /^\s+(basic_data|code_hash|slot|chunk)\s+(\S*?)\s*([0-9a-f]{64})/.exec(line);
    if (row) rows.push({ address, label: row[1]!, arg: row[2]!, key: row[3]! });
  }

  it("parses 2 addresses x 14 rows and 2 extra stems", () => {
    expect(rows.length).toBe(28);
    expect(stems.length).toBe(2);
    expect(rows.filter((r) => r.label === "slot" && r.arg === "ff..ff").length).toBe(2);
    expect(rows.filter((r) => r.label === "chunk" && r.arg === "384").length).toBe(2);
  });

  it.each(rows.map((r) => [r.address, r.label, r.arg, r] as const))(
    "%s %s %s",
    (_a, label, arg, r) => {
      const addr = hexToBytes(r.address);
      let key: Uint8Array;
      if (label === "basic_data") key = basicDataKey("sha256-be", addr);
      else if (label === "code_hash") key = codeHashKey("sha256-be", addr);
      else if (label === "slot") key = storageSlotKey("sha256-be", addr, parseSpecSlot(arg));
      else key = codeChunkKey("sha256-be", addr, Number(arg));
      expect(hex(key)).toBe(`0x${r.key}`);
    },
  );

  it("slot ff..ff uses the overflow byte: tree index = 2^248 + 2^240 - 1", () => {
    const slot = parseSpecSlot("ff..ff");
    const { treeIndex, subIndex } = storageSlotLocation(slot);
    expect(treeIndex).toBe(2n ** 248n + 2n ** 240n - 1n);
    expect(subIndex).toBe(0xff);
    const row = rows.find((r) => r.address.startsWith("01") && r.arg === "ff..ff")!;
    expect(hex(treeKey("sha256-be", hexToBytes(row.address), treeIndex, subIndex))).toBe(
      `0x${row.key}`,
    );
  });

  it.each(stems.map((s) => [s.treeIndex, s] as const))(
    "address 0x00..00 tree_index %s stem",
    (treeIndex, s) => {
      expect(hex(treeStem("sha256-be", hexToBytes(s.address), treeIndex))).toBe(`0x${s.stem}`);
    },
  );
});

describe("ethereumjs key_derivation (little-endian tree index)", () => {
  const kd = loadEthereumjsVectors().key_derivation;
  const address = hexToBytes(kd.address);

  it("is the little-endian rule over a 20-byte address", () => {
    expect(kd.rule).toContain('"little"');
    expect(kd.address32).toBe(`0x${"00".repeat(12)}${kd.address.slice(2)}`);
  });

  describe.each([
    ["blake3-le", "blake3"],
    ["sha256-le", "sha256"],
  ] as const)("%s", (scheme, hashName) => {
    const set = kd.hashes[hashName];
    const both = (expected: { ethereumjs: string; ref: string }, key: Uint8Array): void => {
      expect(hex(key)).toBe(`0x${expected.ethereumjs}`);
      expect(hex(key)).toBe(`0x${expected.ref}`);
    };

    it("basic_data and code_hash keys, also from the 32-byte address", () => {
      both(set.basic_data_key, basicDataKey(scheme, address));
      both(set.code_hash_key, codeHashKey(scheme, address));
      both(set.basic_data_key, basicDataKey(scheme, hexToBytes(kd.address32)));
    });

    it.each(Object.entries(set.storage_slot_keys))("storage slot %s", (slot, expected) => {
      both(expected, storageSlotKey(scheme, address, BigInt(slot)));
    });

    it.each(Object.entries(set.code_chunk_keys))("code chunk %s", (chunk, expected) => {
      both(expected, codeChunkKey(scheme, address, Number(chunk)));
    });

    it("has 10 slots and 8 chunks", () => {
      expect(Object.keys(set.storage_slot_keys).length).toBe(10);
      expect(Object.keys(set.code_chunk_keys).length).toBe(8);
    });
  });
});

describe("derivation paths agree (property)", () => {
  const address = fc.uint8Array({ minLength: 20, maxLength: 20 });
  const slot = fc.oneof(
    fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
    fc.bigInt({ min: 0n, max: 300n }),
    fc.bigInt({ min: 2n ** 248n * 255n, max: 2n ** 256n - 1n }),
  );

  it.each(KEY_SCHEMES)("%s: storage slot bytes == bigint == treeKey(location)", (scheme) => {
    fc.assert(
      fc.property(address, slot, (addr, s) => {
        const fromBytes = storageSlotKey(scheme, addr, storageSlotToBytes(s));
        const fromBigint = storageSlotKey(scheme, addr, s);
        const { treeIndex, subIndex } = storageSlotLocation(s);
        const position = s < 64n ? 64n + s : 2n ** 248n + s;
        expect(treeIndex * 256n + BigInt(subIndex)).toBe(position);
        expect(hex(fromBytes)).toBe(hex(fromBigint));
        expect(hex(fromBytes)).toBe(hex(treeKey(scheme, addr, treeIndex, subIndex)));
      }),
      { numRuns: 150 },
    );
  });

  it.each(KEY_SCHEMES)(
    "%s: code chunk number == bigint == treeKey(location); padded address",
    (scheme) => {
      fc.assert(
        fc.property(address, fc.integer({ min: 0, max: 2 ** 40 }), (addr, chunk) => {
          const key = codeChunkKey(scheme, addr, chunk);
          const position = BigInt(chunk) + 128n;
          expect(hex(key)).toBe(hex(codeChunkKey(scheme, addr, BigInt(chunk))));
          expect(hex(key)).toBe(
            hex(treeKey(scheme, addr, position / 256n, Number(position % 256n))),
          );
          const padded = new Uint8Array(32);
          padded.set(addr, 12);
          expect(hex(codeChunkKey(scheme, padded, chunk))).toBe(hex(key));
        }),
        { numRuns: 100 },
      );
    },
  );

  it("big chunk indices past 2^53 take the bigint path", () => {
    const addr = new Uint8Array(20).fill(0x42);
    const chunk = 2n ** 63n;
    const position = chunk + 128n;
    expect(hex(codeChunkKey("sha256-be", addr, chunk))).toBe(
      hex(treeKey("sha256-be", addr, position >> 8n, Number(position & 255n))),
    );
    expect(hex(codeChunkKey("sha256-be", addr, Number.MAX_SAFE_INTEGER))).toBe(
      hex(codeChunkKey("sha256-be", addr, BigInt(Number.MAX_SAFE_INTEGER))),
    );
  });
});

describe("derivers", () => {
  it("shared derivers are per scheme; created ones can take a custom hasher", () => {
    expect(sharedKeyDeriver("sha256-be")).toBe(sharedKeyDeriver("sha256-be"));
    expect(sharedKeyDeriver("sha256-be")).not.toBe(sharedKeyDeriver("sha256-le"));
    expect(sharedKeyDeriver("blake3-le").hasher).toBe(getHasher("blake3"));

    let calls = 0;
    const inner = jsSha256Kernel;
    const counting: Sha256BatchKernel = {
      hash32Batch: (...args) => inner.hash32Batch(...args),
      hash64Batch: (...args) => {
        calls++;
        inner.hash64Batch(...args);
      },
    };
    const deriver = new KeyDeriver("sha256-be", createSha256Hasher(counting));
    const account = accountVectors[1]!;
    expect(hex(deriver.basicDataKey(hexToBytes(account.address)))).toBe(
      account.basic_data["sha256-be"],
    );
    expect(calls).toBe(1);
  });

  it("each key is a fresh array and later calls do not change earlier keys", () => {
    const deriver = new KeyDeriver("sha256-be");
    const a = accountVectors[2]!;
    const b = accountVectors[3]!;
    const first = deriver.basicDataKey(hexToBytes(a.address));
    const second = deriver.storageSlotKey(hexToBytes(b.address), 2n ** 255n);
    expect(first).not.toBe(second);
    expect(hex(first)).toBe(a.basic_data["sha256-be"]);
    const stem = deriver.accountStem(hexToBytes(a.address));
    expect(stem.length).toBe(31);
    expect(stem.buffer.byteLength).toBe(31);
  });
});

describe("errors name the bad input", () => {
  const addr = new Uint8Array(20);
  const scheme: KeyScheme = "sha256-be";

  it("addresses", () => {
    expectKeyError(
      () => basicDataKey(scheme, new Uint8Array(19)),
      "INVALID_ADDRESS",
      "got 19 bytes",
    );
    expectKeyError(
      () => basicDataKey(scheme, new Uint8Array(21)),
      "INVALID_ADDRESS",
      "got 21 bytes",
    );
    const dirty = new Uint8Array(32);
    dirty[3] = 9;
    expectKeyError(() => basicDataKey(scheme, dirty), "INVALID_ADDRESS", "byte 3 is 9");
    // Hex text is an address too: its bytes are checked like any others.
    expectKeyError(() => basicDataKey(scheme, "0x00"), "INVALID_ADDRESS", "got 1 bytes");
    expectTypedError(() => basicDataKey(scheme, "0xzz"), BintrieError, "INVALID_HEX", '"0xzz"');
    expectKeyError(
      () => basicDataKey(scheme, 7 as unknown as Uint8Array),
      "INVALID_ADDRESS",
      "got number",
    );
  });

  it("hex addresses and slots derive the same keys as bytes and bigints", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
        fc.constantFrom(...KEY_SCHEMES),
        (address, slot, variant) => {
          const hexAddress = `0x${Buffer.from(address).toString("hex")}`;
          const hexSlot = `0x${slot.toString(16)}`;
          expect(storageSlotKey(variant, hexAddress, hexSlot)).toEqual(
            storageSlotKey(variant, address, slot),
          );
          expect(basicDataKey(variant, hexAddress.toUpperCase().replace("0X", "0x"))).toEqual(
            basicDataKey(variant, address),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("storage slots", () => {
    expectKeyError(
      () => storageSlotKey(scheme, addr, new Uint8Array(31)),
      "INVALID_SLOT",
      "got 31 bytes",
    );
    expectKeyError(() => storageSlotKey(scheme, addr, -1n), "INVALID_SLOT", "storage slot -1");
    expectKeyError(() => storageSlotKey(scheme, addr, 2n ** 256n), "INVALID_SLOT", `${2n ** 256n}`);
    expectKeyError(() => storageSlotToBytes(1n, new Uint8Array(31)), "INVALID_SLOT", "got 31");
    expectKeyError(() => storageSlotLocation(new Uint8Array(33)), "INVALID_SLOT", "got 33 bytes");
  });

  it("tree and sub indices", () => {
    expectKeyError(() => treeKey(scheme, addr, -1n, 0), "INVALID_TREE_INDEX", "got -1n");
    expectKeyError(() => treeStem(scheme, addr, 2n ** 256n), "INVALID_TREE_INDEX", `${2n ** 256n}`);
    expectKeyError(() => treeKey(scheme, addr, 0n, 256), "INVALID_SUB_INDEX", "sub index 256");
    expectKeyError(() => treeKey(scheme, addr, 0n, -1), "INVALID_SUB_INDEX", "sub index -1");
    expectKeyError(() => treeKey(scheme, addr, 0n, 0.5), "INVALID_SUB_INDEX", "sub index 0.5");
  });

  it("code chunk indices", () => {
    expectKeyError(() => codeChunkKey(scheme, addr, -1), "INVALID_CHUNK_INDEX", "index -1");
    expectKeyError(() => codeChunkKey(scheme, addr, 1.5), "INVALID_CHUNK_INDEX", "index 1.5");
    expectKeyError(
      () => codeChunkKey(scheme, addr, 2n ** 64n - 128n),
      "INVALID_CHUNK_INDEX",
      `${2n ** 64n - 128n}`,
    );
    expectKeyError(() => codeChunkLocation(Number.NaN), "INVALID_CHUNK_INDEX", "NaN");
    expect(() => codeChunkKey(scheme, addr, 2n ** 64n - 129n)).not.toThrow();
  });

  it("schemes and hashers", () => {
    expectKeyError(
      () => treeKey("sha512-be" as KeyScheme, addr, 0n, 0),
      "INVALID_KEY_SCHEME",
      '"sha512-be"',
    );
    expectKeyError(
      () => new KeyDeriver("sha256-be", getHasher("blake3")),
      "HASHER_MISMATCH",
      "got blake3",
    );
  });
});
