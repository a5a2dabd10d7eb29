import { describe, expect, it } from "vitest";
import {
  bitmapSize,
  decodeGroupBlob,
  decodeNode,
  encodeGroupBlob,
  encodeGroupBlobFromEntries,
  encodeGroupBlobInto,
  type GroupBlob,
  groupBlobSize,
  groupEntries,
} from "../src/index.js";
import { catchCodecError, codecErrorCode } from "./expect-codec-error.js";
import { bytesToHex, hexToBytes } from "./hex.js";

const LEFT = "1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef";
const RIGHT = "fedcba0987654321fedcba0987654321fedcba0987654321fedcba0987654321";

function hashHex(byte: number): string {
  return byte.toString(16).padStart(2, "0").repeat(32);
}

function fields(group: GroupBlob) {
  return {
    groupDepth: group.groupDepth,
    count: group.count,
    positions: [...group.positions],
    depthOffsets: [...group.depthOffsets],
    hashes: bytesToHex(group.hashes),
  };
}

interface GroupVector {
  name: string;
  blob: string;
  groupDepth: number;
  positions: number[];
  depthOffsets: number[];
  hashes: string[];
}

const SPEC_HASHES = {
  a: "aab1060e04cb4f5dc6f697ae93156a95714debbf77d54238766adc5709282b6f",
  b: "cb669b99f1e1d16a0c872a0a51c936280906347235e0eeb8c72963f8de68c1f1",
  d9: "d90841cd9ac38b304a3ba8bf706cb89b26aba153c72b73663fafb5445db8d39c",
  x73: "73a4d017179acd5cc6ee3a7c223ef7ce5d15a66bc16b2afeee7db6fca58bcb05",
  f3: "f328f7e84ed16657e2a2a432354a9cb4ffbd21424299cda58d4543ffd8c43c6f",
  x40: "40ccea119ad67f8ab8f2fa49b37e5d00ce1c357b53347936fd216ff8007510c7",
  f6: "f6dc565377e409d171e68f749d0cff65be3b8da6c09dd61d1daa11635616daae",
  x00: "0088e8b66a8de16c24d5c1ca191b3849fafce07af7dea37d3e544527fd6a68d1",
  x91: "91cd298486b7afedcaeb75f9cdcf7cbba3a3f063c188a38ca60d05c4638764af",
  x4b: "4bf23d7a322cfb117c949cc4f40b26e74712c2f0e473f2a1e3978a253b49390c",
};

const VECTORS: GroupVector[] = [
  {
    name: "6.1 TestSerializeDeserializeInternalNode (68 bytes, g=1, two hashed children)",
    blob: `0201c000${LEFT}${RIGHT}`,
    groupDepth: 1,
    positions: [0, 1],
    depthOffsets: [1, 1],
    hashes: [LEFT, RIGHT],
  },
  {
    name: "6.2 TwoEntriesDiffFirstBit g=1 root",
    blob: `0201c000${SPEC_HASHES.a}${SPEC_HASHES.b}`,
    groupDepth: 1,
    positions: [0, 1],
    depthOffsets: [1, 1],
    hashes: [SPEC_HASHES.a, SPEC_HASHES.b],
  },
  {
    name: "6.2 TwoEntriesDiffFirstBit g=5 root (stems one level down, zero-extended)",
    blob: `02058000800000${SPEC_HASHES.a}${SPEC_HASHES.b}`,
    groupDepth: 5,
    positions: [0, 16],
    depthOffsets: [1, 1],
    hashes: [SPEC_HASHES.a, SPEC_HASHES.b],
  },
  {
    name: "6.2 MerkleizeMultipleEntries g=5 group at path 0005",
    blob: `02058800000048${SPEC_HASHES.d9}${SPEC_HASHES.x73}`,
    groupDepth: 5,
    positions: [0, 4],
    depthOffsets: [3, 3],
    hashes: [SPEC_HASHES.d9, SPEC_HASHES.x73],
  },
  {
    name: "6.2 MerkleizeMultipleEntries g=5 root (two bottom-layer group roots)",
    blob: `02058000800090${SPEC_HASHES.f6}${SPEC_HASHES.x00}`,
    groupDepth: 5,
    positions: [0, 16],
    depthOffsets: [5, 5],
    hashes: [SPEC_HASHES.f6, SPEC_HASHES.x00],
  },
  {
    name: "6.2 MerkleizeMultipleEntries g=8 root",
    blob: `0208c0${"00".repeat(15)}c0${"00".repeat(15)}fff0${SPEC_HASHES.d9}${SPEC_HASHES.x73}${SPEC_HASHES.f3}${SPEC_HASHES.x40}`,
    groupDepth: 8,
    positions: [0, 1, 128, 129],
    depthOffsets: [8, 8, 8, 8],
    hashes: [SPEC_HASHES.d9, SPEC_HASHES.x73, SPEC_HASHES.f3, SPEC_HASHES.x40],
  },
  {
    name: "6.2 BinaryGenesisCommit g=5 root (stems at depth 3: positions 100<<2, 101<<2)",
    blob: `02050000880048${SPEC_HASHES.x91}${SPEC_HASHES.x4b}`,
    groupDepth: 5,
    positions: [16, 20],
    depthOffsets: [3, 3],
    hashes: [SPEC_HASHES.x91, SPEC_HASHES.x4b],
  },
  {
    name: "full g=3 bottom layer: eight 3-bit fields 010 straddling bytes (49 24 92)",
    blob: `0203ff492492${[1, 2, 3, 4, 5, 6, 7, 8].map(hashHex).join("")}`,
    groupDepth: 3,
    positions: [0, 1, 2, 3, 4, 5, 6, 7],
    depthOffsets: [3, 3, 3, 3, 3, 3, 3, 3],
    hashes: [1, 2, 3, 4, 5, 6, 7, 8].map(hashHex),
  },
  {
    name: "g=4 entries at every depth 1..4 (fields 000 001 010 011 011 -> 05 36)",
    blob: `0204808b0536${[1, 2, 3, 4, 5].map(hashHex).join("")}`,
    groupDepth: 4,
    positions: [0, 8, 12, 14, 15],
    depthOffsets: [1, 2, 3, 4, 4],
    hashes: [1, 2, 3, 4, 5].map(hashHex),
  },
];

describe("group blob vectors: exact bytes both ways", () => {
  for (const vector of VECTORS) {
    it(vector.name, () => {
      const count = vector.positions.length;
      const expected = {
        groupDepth: vector.groupDepth,
        count,
        positions: vector.positions,
        depthOffsets: vector.depthOffsets,
        hashes: vector.hashes.join(""),
      };
      const blob = hexToBytes(vector.blob);
      expect(blob.length).toBe(groupBlobSize(vector.groupDepth, count));

      const encoded = encodeGroupBlob(
        vector.groupDepth,
        count,
        vector.positions,
        vector.depthOffsets,
        hexToBytes(vector.hashes.join("")),
      );
      expect(bytesToHex(encoded)).toBe(vector.blob);

      const decoded = decodeGroupBlob(blob);
      expect(fields(decoded)).toEqual(expected);
      const node = decodeNode(blob);
      expect(node.kind).toBe("group");
      if (node.kind === "group") {
        expect(fields(node)).toEqual(expected);
      }
    });
  }

  it("the 68-byte worked example is 02 01 c0 00 || left || right", () => {
    const blob = encodeGroupBlob(1, 2, [0, 1], [1, 1], hexToBytes(LEFT + RIGHT));
    expect(blob.length).toBe(68);
    expect(bytesToHex(blob.subarray(0, 4))).toBe("0201c000");
  });

  it("hashes are a view into the input", () => {
    const blob = hexToBytes(`0201c000${LEFT}${RIGHT}`);
    const decoded = decodeGroupBlob(blob);
    expect(decoded.hashes.buffer).toBe(blob.buffer);
    expect(decoded.hashes.byteOffset).toBe(blob.byteOffset + 4);
    expect(decoded.hashes.length).toBe(64);
  });
});

describe("group blob sizes", () => {
  it("bitmapSize is 1 for g <= 3, else 2^(g-3)", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(bitmapSize)).toEqual([1, 1, 1, 2, 4, 8, 16, 32]);
    expect(codecErrorCode(() => bitmapSize(0))).toBe("INVALID_ARGUMENT");
    expect(codecErrorCode(() => bitmapSize(9))).toBe("INVALID_ARGUMENT");
  });

  it("groupBlobSize = 2 + bitmap + ceil(3K/8) + 32K", () => {
    expect(groupBlobSize(1, 2)).toBe(68);
    expect(groupBlobSize(5, 0)).toBe(6);
    expect(groupBlobSize(5, 3)).toBe(2 + 4 + 2 + 96);
    expect(groupBlobSize(8, 256)).toBe(2 + 32 + 96 + 8192);
    expect(codecErrorCode(() => groupBlobSize(2, 5))).toBe("INVALID_ARGUMENT");
  });

  it("no group depth and entry count gives 65 bytes, so flat internal blobs never collide", () => {
    const sizesAround65: number[] = [];
    for (let g = 1; g <= 8; g++) {
      for (let count = 0; count <= 1 << g; count++) {
        const size = groupBlobSize(g, count);
        expect(size).not.toBe(65);
        if (size >= 60 && size <= 70) {
          sizesAround65.push(size);
        }
      }
    }
    // Nearest: K=1 with g=8 (2 + 32 + 1 + 32 = 67), K=2 with g <= 3 (68) and g=4 (69).
    expect(sizesAround65.sort((a, b) => a - b)).toEqual([67, 68, 68, 68, 69]);
  });

  it("K = 0 decodes for every g (an empty group) and encodes back", () => {
    for (let g = 1; g <= 8; g++) {
      const blob = new Uint8Array(2 + bitmapSize(g));
      blob[0] = 2;
      blob[1] = g;
      const decoded = decodeGroupBlob(blob);
      expect(fields(decoded)).toEqual({
        groupDepth: g,
        count: 0,
        positions: [],
        depthOffsets: [],
        hashes: "",
      });
      expect(bytesToHex(encodeGroupBlob(g, 0, [], [], new Uint8Array(0)))).toBe(bytesToHex(blob));
    }
  });
});

describe("group blob decoder: rejections and their order (spec 3.2)", () => {
  const zeros = (count: number) => "00".repeat(count);
  const rows: [name: string, blob: string, code: string][] = [
    ["empty", "", "INVALID_LENGTH"],
    ["stem type byte", `01${zeros(67)}`, "INVALID_NODE_TYPE"],
    ["type byte only", "02", "INVALID_LENGTH"],
    ["group depth 0", "0200", "INVALID_GROUP_DEPTH"],
    ["group depth 9", `0209${zeros(64)}`, "INVALID_GROUP_DEPTH"],
    ["group depth 255", "02ff", "INVALID_GROUP_DEPTH"],
    ["no room for the g=5 bitmap", "0205000000", "INVALID_LENGTH"],
    ["no room for the g=8 bitmap", `0208${zeros(31)}`, "INVALID_LENGTH"],
    ["g=1 bitmap padding (checked before the length)", "020120", "NON_CANONICAL_BITMAP_PADDING"],
    ["g=1 bitmap padding, long blob", `020130${zeros(40)}`, "NON_CANONICAL_BITMAP_PADDING"],
    ["g=2 bitmap padding", "020208", "NON_CANONICAL_BITMAP_PADDING"],
    ["one byte short", `0201c000${zeros(63)}`, "INVALID_LENGTH"],
    ["one byte long", `0201c000${zeros(65)}`, "INVALID_LENGTH"],
    ["empty group with a trailing byte", "02050000000000", "INVALID_LENGTH"],
    ["wrong length wins over depth padding", `02028021${zeros(31)}`, "INVALID_LENGTH"],
    ["depth padding wins over a bad offset", `020280e1${zeros(32)}`, "NON_CANONICAL_DEPTH_PADDING"],
    ["g=2 overlap: 0/1 then 1/2", `0202c004${zeros(64)}`, "OVERLAPPING_ENTRIES"],
    ["g=3 overlap: 0/1 then 2/2", `0203a004${zeros(64)}`, "OVERLAPPING_ENTRIES"],
    ["g=3 overlap: 4/1 then 7/3", `02030908${zeros(64)}`, "OVERLAPPING_ENTRIES"],
    [
      "offset check comes before alignment in one entry",
      `020240e0${zeros(32)}`,
      "INVALID_DEPTH_OFFSET",
    ],
    ["earlier entry's bad offset wins", `0202c0e0${zeros(64)}`, "INVALID_DEPTH_OFFSET"],
    ["earlier entry's misalignment wins", `02026018${zeros(64)}`, "NON_CANONICAL_BITMAP_POSITION"],
  ];
  for (const [name, blob, code] of rows) {
    it(`${name}: ${blob.length > 24 ? `${blob.slice(0, 16)}... (${blob.length / 2} bytes)` : blob || "(empty)"} -> ${code}`, () => {
      expect(codecErrorCode(() => decodeGroupBlob(hexToBytes(blob)))).toBe(code);
    });
  }

  it("adjacent sibling subtrees are not an overlap", () => {
    // g=3: entries 0 and 4 at depth offset 1 (fields 000 000).
    const decoded = decodeGroupBlob(hexToBytes(`02038800${"11".repeat(64)}`));
    expect([...decoded.positions]).toEqual([0, 4]);
    expect([...decoded.depthOffsets]).toEqual([1, 1]);
  });

  it("messages name the blob, the group depth and the bit position", () => {
    const overlap = catchCodecError(() =>
      decodeGroupBlob(hexToBytes(`0203a004${"00".repeat(64)}`)),
    );
    expect(overlap.message).toContain("bitmap position 2");
    expect(overlap.message).toContain("depth-3");
    expect(overlap.message).toContain("entry 0 at position 0");

    const depth = catchCodecError(() => decodeGroupBlob(hexToBytes("0200")));
    expect(depth.message).toContain("invalid group depth 0");
    expect(depth.message).toContain("2-byte");

    const length = catchCodecError(() => decodeGroupBlob(hexToBytes("0201c0")));
    expect(length.message).toContain("68 bytes, got 3");
  });
});

describe("group blob encoder: argument checks", () => {
  const hashes = new Uint8Array(32 * 4);
  const rows: [name: string, action: () => unknown, mention: string][] = [
    ["group depth 0", () => encodeGroupBlob(0, 0, [], [], hashes), "group depth"],
    ["group depth 9", () => encodeGroupBlob(9, 0, [], [], hashes), "group depth"],
    ["more entries than bits", () => encodeGroupBlob(1, 3, [0, 1, 2], [1, 1, 1], hashes), "0..2"],
    [
      "decreasing positions",
      () => encodeGroupBlob(2, 2, [1, 0], [2, 2], hashes),
      "strictly increase",
    ],
    [
      "duplicate positions",
      () => encodeGroupBlob(2, 2, [1, 1], [2, 2], hashes),
      "strictly increase",
    ],
    ["position past 2^g", () => encodeGroupBlob(2, 1, [4], [2], hashes), "outside 0..3"],
    ["fractional position", () => encodeGroupBlob(2, 1, [0.5], [2], hashes), "outside 0..3"],
    ["depth offset 0", () => encodeGroupBlob(2, 1, [0], [0], hashes), "depth offset 0"],
    ["depth offset past g", () => encodeGroupBlob(2, 1, [0], [3], hashes), "depth offset 3"],
    [
      "position not zero-extended",
      () => encodeGroupBlob(2, 1, [1], [1], hashes),
      "low 1 bits zero",
    ],
    [
      "entry inside an earlier subtree",
      () => encodeGroupBlob(2, 2, [0, 1], [1, 2], hashes),
      "inside the subtree",
    ],
    ["too few positions", () => encodeGroupBlob(2, 2, [0], [2, 2], hashes), "2 positions"],
    [
      "too few hash bytes",
      () => encodeGroupBlob(2, 2, [0, 1], [2, 2], new Uint8Array(63)),
      "64 hash bytes",
    ],
  ];
  for (const [name, action, mention] of rows) {
    it(`${name} -> INVALID_ARGUMENT`, () => {
      const error = catchCodecError(action);
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.message).toContain(mention);
    });
  }

  it("uses only the first count entries of longer arrays", () => {
    const blob = encodeGroupBlob(1, 1, [1, 0, 9], [1, 7, 7], hexToBytes(RIGHT + LEFT + LEFT));
    expect(bytesToHex(blob)).toBe(`02014000${RIGHT}`);
    expect(
      bytesToHex(encodeGroupBlob(1, 1, Uint16Array.of(1), Uint8Array.of(1), hexToBytes(RIGHT))),
    ).toBe(bytesToHex(blob));
  });
});

describe("encodeGroupBlobInto", () => {
  it("writes at an offset over stale bytes and touches nothing else", () => {
    const out = new Uint8Array(2 + 68 + 3).fill(0xee);
    const written = encodeGroupBlobInto(1, 2, [0, 1], [1, 1], hexToBytes(LEFT + RIGHT), out, 2);
    expect(written).toBe(68);
    expect(bytesToHex(out)).toBe(`eeee0201c000${LEFT}${RIGHT}eeeeee`);
  });

  it("refuses a buffer without room and leaves it untouched", () => {
    const out = new Uint8Array(70).fill(0xee);
    const error = catchCodecError(() =>
      encodeGroupBlobInto(1, 2, [0, 1], [1, 1], hexToBytes(LEFT + RIGHT), out, 3),
    );
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.message).toContain("68 bytes at offset 3");
    expect(out.every((byte) => byte === 0xee)).toBe(true);
  });
});

describe("group entries view", () => {
  const mixed = VECTORS.find((vector) => vector.groupDepth === 4)!;

  it("lists entries in bitmap order with hash views", () => {
    const blob = hexToBytes(mixed.blob);
    const entries = groupEntries(decodeGroupBlob(blob));
    expect(
      entries.map((entry) => [entry.position, entry.depthOffset, bytesToHex(entry.hash)]),
    ).toEqual(
      mixed.positions.map((position, i) => [position, mixed.depthOffsets[i], mixed.hashes[i]]),
    );
    expect(entries[2]!.hash.buffer).toBe(blob.buffer);
  });

  it("encodes entries given in any order", () => {
    const entries = groupEntries(decodeGroupBlob(hexToBytes(mixed.blob)));
    const shuffled = [entries[3]!, entries[0]!, entries[4]!, entries[2]!, entries[1]!];
    expect(bytesToHex(encodeGroupBlobFromEntries(4, shuffled))).toBe(mixed.blob);
    expect(bytesToHex(encodeGroupBlobFromEntries(4, []))).toBe("02040000");
  });

  it("rejects hashes that are not 32 bytes and duplicate positions", () => {
    const short = catchCodecError(() =>
      encodeGroupBlobFromEntries(2, [{ position: 0, depthOffset: 1, hash: new Uint8Array(31) }]),
    );
    expect(short.code).toBe("INVALID_ARGUMENT");
    expect(short.message).toContain("31");
    const hash = new Uint8Array(32);
    expect(
      codecErrorCode(() =>
        encodeGroupBlobFromEntries(2, [
          { position: 2, depthOffset: 2, hash },
          { position: 2, depthOffset: 2, hash },
        ]),
      ),
    ).toBe("INVALID_ARGUMENT");
  });
});
