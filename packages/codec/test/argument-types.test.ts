import { describe, expect, it } from "vitest";
import {
  BitArray,
  bitmapHas,
  bitmapRank,
  bitmapSize,
  childPathKey,
  comparePathKeys,
  decodeGroupBlob,
  decodeInternalBlob,
  decodeNode,
  decodePathKey,
  decodeStemBlob,
  encodeGroupBlob,
  encodeGroupBlobFromEntries,
  encodeGroupBlobInto,
  encodeInternalBlob,
  encodePathKey,
  encodeStemBlob,
  encodeStemBlobFromSlots,
  type GroupBlob,
  type GroupEntry,
  groupBlobSize,
  groupEntries,
  nodeDbKey,
  pathKeySize,
  popcount,
  type StemBlob,
  stemBlobValue,
  writePathKey,
} from "../src/index.js";
import { catchCodecError } from "./expect-codec-error.js";

// Every exported function and BitArray method, called with arguments of the wrong type: each
// call must throw CodecError INVALID_ARGUMENT naming the argument (and, for the type checks, the
// function), never a raw TypeError / SyntaxError, and never silently accept the value.

// Tests pass anything where the signatures want bytes, numbers or lists.
// biome-ignore lint/suspicious/noExplicitAny: the point is to get past the types.
type Any = any;
type Row = [name: string, action: () => unknown, mentions: string[]];

const bytes = (length: number) => new Uint8Array(length);
const zeros = (length: number) => new Array<number>(length).fill(0);

/** Values that are not a Uint8Array, each sized to fit where `length` bytes are expected. */
function notBytes(length: number): [string, unknown][] {
  return [
    ["null", null],
    ["undefined", undefined],
    ["a number", 5],
    ["a string", "ab"],
    ["a plain array", zeros(length)],
    ["a Uint16Array", new Uint16Array(length)],
    ["a Uint8ClampedArray", new Uint8ClampedArray(length)],
    ["an Int8Array", new Int8Array(length)],
    ["an ArrayBuffer", new ArrayBuffer(length)],
    ["a DataView", new DataView(new ArrayBuffer(length))],
    ["an object", { length }],
  ];
}

/** Values that are not integers; `withUndefined` false where undefined selects a default. */
function notIntegers(withUndefined = true): [string, unknown][] {
  const values: [string, unknown][] = [
    ["null", null],
    ["a numeric string", "5"],
    ["a string", "ab"],
    ["a fraction", 1.5],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["a bigint", 5n],
    ["a boolean", true],
    ["an object", {}],
    ["an array", [1]],
  ];
  return withUndefined ? [["undefined", undefined], ...values] : values;
}

/** Values that are not lists (no integer length). */
const NOT_ARRAYS: [string, unknown][] = [
  ["null", null],
  ["undefined", undefined],
  ["a number", 5],
  ["a string", "ab"],
  ["an object without length", {}],
  ["an object with a negative length", { length: -1 }],
  ["an object with a fractional length", { length: 1.5 }],
  ["a function", () => 0],
];

/** Rows `fn(arg = bad)` for every bad value. */
function rowsFor(
  label: string,
  bad: [string, unknown][],
  call: (value: Any) => unknown,
  mentions: string[],
): Row[] {
  return bad.map(([kind, value]) => [`${label} = ${kind}`, () => call(value), mentions]);
}

const STEM_BLOB = (() => {
  const slots = new Array<Uint8Array | undefined>(256);
  slots[3] = bytes(32).fill(1);
  return encodeStemBlobFromSlots(bytes(31), slots);
})();
const STEM: StemBlob = decodeStemBlob(STEM_BLOB);
const GROUP: GroupBlob = decodeGroupBlob(encodeGroupBlob(1, 2, [0, 1], [1, 1], bytes(64).fill(3)));
const ENTRY: GroupEntry = { position: 0, depthOffset: 1, hash: bytes(32) };

const BYTE_ARGUMENTS: Row[] = [
  ...rowsFor("decodeNode blob", notBytes(64), (v) => decodeNode(v), ["decodeNode", "blob"]),
  ...rowsFor("decodeStemBlob blob", notBytes(64), (v) => decodeStemBlob(v), [
    "decodeStemBlob",
    "blob",
  ]),
  ...rowsFor("decodeGroupBlob blob", notBytes(68), (v) => decodeGroupBlob(v), [
    "decodeGroupBlob",
    "blob",
  ]),
  ...rowsFor("decodeInternalBlob blob", notBytes(65), (v) => decodeInternalBlob(v), [
    "decodeInternalBlob",
    "blob",
  ]),
  ...rowsFor("decodePathKey key", notBytes(2), (v) => decodePathKey(v), ["decodePathKey", "key"]),
  ...rowsFor("encodePathKey bits", notBytes(1), (v) => encodePathKey(v, 8), [
    "encodePathKey",
    "bits",
  ]),
  ...rowsFor("encodePathKey bits (root)", notBytes(0), (v) => encodePathKey(v, 0), [
    "encodePathKey",
    "bits",
  ]),
  ...rowsFor("writePathKey bits", notBytes(1), (v) => writePathKey(v, 8, bytes(2), 0), [
    "writePathKey",
    "bits",
  ]),
  ...rowsFor("writePathKey out", notBytes(2), (v) => writePathKey(bytes(1), 8, v, 0), [
    "writePathKey",
    "out",
  ]),
  ...rowsFor("writePathKey out (root)", notBytes(0), (v) => writePathKey(bytes(0), 0, v, 0), [
    "writePathKey",
    "out",
  ]),
  ...rowsFor("childPathKey key", notBytes(32), (v) => childPathKey(v, 0), ["childPathKey", "key"]),
  ...rowsFor("comparePathKeys a", notBytes(2), (v) => comparePathKeys(v, bytes(2)), [
    "comparePathKeys",
    "a",
  ]),
  ...rowsFor("comparePathKeys b", notBytes(2), (v) => comparePathKeys(bytes(2), v), [
    "comparePathKeys",
    "b",
  ]),
  ...rowsFor("nodeDbKey pathKey", notBytes(2), (v) => nodeDbKey(v), ["nodeDbKey", "pathKey"]),
  ...rowsFor(
    "nodeDbKey prefix",
    notBytes(2).filter(([kind]) => kind !== "undefined"),
    (v) => nodeDbKey(bytes(2), v),
    ["nodeDbKey", "prefix"],
  ),
  ...rowsFor("popcount bytes", notBytes(2), (v) => popcount(v), ["popcount", "bytes"]),
  ...rowsFor("bitmapHas bitmap", notBytes(32), (v) => bitmapHas(v, 0), ["bitmapHas", "bitmap"]),
  ...rowsFor("bitmapRank bitmap", notBytes(32), (v) => bitmapRank(v, 0), ["bitmapRank", "bitmap"]),
  ...rowsFor("encodeStemBlob stem", notBytes(31), (v) => encodeStemBlob(v, bytes(32), bytes(0)), [
    "encodeStemBlob",
    "stem",
  ]),
  ...rowsFor("encodeStemBlob bitmap", notBytes(32), (v) => encodeStemBlob(bytes(31), v, bytes(0)), [
    "encodeStemBlob",
    "bitmap",
  ]),
  ...rowsFor("encodeStemBlob values", notBytes(0), (v) => encodeStemBlob(bytes(31), bytes(32), v), [
    "encodeStemBlob",
    "values",
  ]),
  ...rowsFor(
    "encodeStemBlobFromSlots stem",
    notBytes(31),
    (v) => encodeStemBlobFromSlots(v, new Array(256)),
    ["encodeStemBlobFromSlots", "stem"],
  ),
  ...rowsFor("encodeInternalBlob left", notBytes(32), (v) => encodeInternalBlob(v, bytes(32)), [
    "encodeInternalBlob",
    "left",
  ]),
  ...rowsFor("encodeInternalBlob right", notBytes(32), (v) => encodeInternalBlob(bytes(32), v), [
    "encodeInternalBlob",
    "right",
  ]),
  ...rowsFor("encodeGroupBlob hashes", notBytes(64), (v) => encodeGroupBlob(1, 1, [0], [1], v), [
    "encodeGroupBlob",
    "hashes",
  ]),
  ...rowsFor(
    "encodeGroupBlobInto hashes",
    notBytes(64),
    (v) => encodeGroupBlobInto(1, 1, [0], [1], v, bytes(100), 0),
    ["encodeGroupBlobInto", "hashes"],
  ),
  ...rowsFor(
    "encodeGroupBlobInto out",
    notBytes(100),
    (v) => encodeGroupBlobInto(1, 1, [0], [1], bytes(32), v, 0),
    ["encodeGroupBlobInto", "out"],
  ),
  ...rowsFor("BitArray.fromBytes data", notBytes(32), (v) => BitArray.fromBytes(8, v), [
    "BitArray.fromBytes",
    "data",
  ]),
  ...rowsFor("BitArray.fromPathKey key", notBytes(2), (v) => BitArray.fromPathKey(v), [
    "BitArray.fromPathKey",
    "key",
  ]),
  ...rowsFor("BitArray#setBytes data", notBytes(32), (v) => new BitArray().setBytes(8, v), [
    "BitArray.setBytes",
    "data",
  ]),
  ...rowsFor("BitArray#putKeyBytes out", notBytes(2), (v) => new BitArray(8).putKeyBytes(v), [
    "BitArray.putKeyBytes",
    "out",
  ]),
  ...rowsFor(
    "stemBlobValue blob.bitmap",
    notBytes(32),
    (v) => stemBlobValue({ ...STEM, bitmap: v }, 3),
    ["stemBlobValue", "blob.bitmap"],
  ),
  ...rowsFor(
    "stemBlobValue blob.values",
    notBytes(32),
    (v) => stemBlobValue({ ...STEM, values: v }, 3),
    ["stemBlobValue", "blob.values"],
  ),
  ...rowsFor(
    "groupEntries group.hashes",
    notBytes(64),
    (v) => groupEntries({ ...GROUP, hashes: v }),
    ["groupEntries", "group.hashes"],
  ),
];

const INTEGER_ARGUMENTS: Row[] = [
  ...rowsFor("pathKeySize length", notIntegers(), (v) => pathKeySize(v), ["path length"]),
  ...rowsFor("encodePathKey length", notIntegers(), (v) => encodePathKey(bytes(32), v), [
    "path length",
  ]),
  ...rowsFor("writePathKey length", notIntegers(), (v) => writePathKey(bytes(32), v, bytes(2), 0), [
    "path length",
  ]),
  ...rowsFor(
    "writePathKey outOffset",
    notIntegers(),
    (v) => writePathKey(bytes(1), 8, bytes(4), v),
    ["path key", "offset"],
  ),
  ...rowsFor(
    "writePathKey outOffset (root)",
    notIntegers(),
    (v) => writePathKey(bytes(0), 0, bytes(4), v),
    ["path key", "offset"],
  ),
  ...rowsFor("childPathKey depth", notIntegers(), (v) => childPathKey(bytes(32), v), ["depth"]),
  ...rowsFor("bitmapHas index", notIntegers(), (v) => bitmapHas(bytes(32), v), ["bitmap index"]),
  ...rowsFor("bitmapRank index", notIntegers(), (v) => bitmapRank(bytes(32), v), ["bitmap index"]),
  ...rowsFor("popcount start", notIntegers(false), (v) => popcount(bytes(2), v), [
    "popcount range",
  ]),
  ...rowsFor("popcount end", notIntegers(false), (v) => popcount(bytes(2), 0, v), [
    "popcount range",
  ]),
  ...rowsFor("bitmapSize groupDepth", notIntegers(), (v) => bitmapSize(v), ["group depth"]),
  ...rowsFor("groupBlobSize groupDepth", notIntegers(), (v) => groupBlobSize(v, 0), [
    "group depth",
  ]),
  ...rowsFor("groupBlobSize count", notIntegers(), (v) => groupBlobSize(1, v), ["entry count"]),
  ...rowsFor(
    "encodeGroupBlob groupDepth",
    notIntegers(),
    (v) => encodeGroupBlob(v, 0, [], [], bytes(0)),
    ["group depth"],
  ),
  ...rowsFor(
    "encodeGroupBlob count",
    notIntegers(),
    (v) => encodeGroupBlob(1, v, [0], [1], bytes(32)),
    ["entry count"],
  ),
  ...rowsFor(
    "encodeGroupBlobInto outOffset",
    notIntegers(),
    (v) => encodeGroupBlobInto(1, 1, [0], [1], bytes(32).fill(1), bytes(100), v),
    ["group blob", "offset"],
  ),
  ...rowsFor(
    "encodeGroupBlobFromEntries groupDepth",
    notIntegers(),
    (v) => encodeGroupBlobFromEntries(v, []),
    ["encodeGroupBlobFromEntries", "groupDepth"],
  ),
  ...rowsFor("stemBlobValue subindex", notIntegers(), (v) => stemBlobValue(STEM, v), [
    "stemBlobValue",
    "subindex",
  ]),
  ...rowsFor("new BitArray length", notIntegers(false), (v) => new BitArray(v), [
    "bit array length",
  ]),
  ...rowsFor("BitArray#bit index", notIntegers(), (v) => new BitArray(8).bit(v), ["bit index"]),
  ...rowsFor("BitArray#msbs n", notIntegers(), (v) => new BitArray(8).msbs(v), ["bit count"]),
  ...rowsFor("BitArray#setBit bit", notIntegers(), (v) => new BitArray().setBit(v), ["bit"]),
  ...rowsFor("BitArray#appendBit bit", notIntegers(), (v) => new BitArray().appendBit(v), ["bit"]),
  ...rowsFor(
    "BitArray#setBytes length",
    notIntegers(),
    (v) => new BitArray().setBytes(v, bytes(32)),
    ["bit array length"],
  ),
  ...rowsFor(
    "BitArray#putKeyBytes outOffset",
    notIntegers(false),
    (v) => new BitArray(8).putKeyBytes(bytes(4), v),
    ["path key", "offset"],
  ),
];

const MORE_INTEGER_ARGUMENTS: Row[] = [
  ...rowsFor(
    "encodeGroupBlobInto groupDepth",
    notIntegers(),
    (v) => encodeGroupBlobInto(v, 0, [], [], bytes(0), bytes(100), 0),
    ["group depth"],
  ),
  ...rowsFor(
    "encodeGroupBlobInto count",
    notIntegers(),
    (v) => encodeGroupBlobInto(1, v, [0], [1], bytes(32), bytes(100), 0),
    ["entry count"],
  ),
  ...rowsFor("BitArray.fromUint length", notIntegers(), (v) => BitArray.fromUint(v, 0), [
    "bit array length",
  ]),
  ...rowsFor("BitArray.fromBytes length", notIntegers(), (v) => BitArray.fromBytes(v, bytes(32)), [
    "bit array length",
  ]),
];

// BitArray's value is a non-negative safe integer or a non-negative bigint (see its docs).
const BIT_ARRAY_VALUES: Row[] = rowsFor(
  "new BitArray value",
  [
    ["null", null],
    ["a numeric string", "5"],
    ["a hex string", "ab"],
    ["a boolean", true],
    ["an object", {}],
    ["an array", [5]],
    ["a fraction", 1.5],
    ["NaN", Number.NaN],
    ["a negative number", -1],
    ["an unsafe integer", 2 ** 53],
    ["a negative bigint", -1n],
    ["a symbol", Symbol("5")],
  ],
  (v) => new BitArray(8, v),
  ["bit array value"],
);
const FROM_UINT_VALUES: Row[] = rowsFor(
  "BitArray.fromUint value",
  [
    ["null", null],
    ["a numeric string", "5"],
    ["a negative number", -1],
    ["undefined (required here)", undefined],
  ],
  (v) => BitArray.fromUint(8, v),
  ["bit array value"],
);

const LIST_ARGUMENTS: Row[] = [
  ...rowsFor(
    "encodeGroupBlob positions",
    NOT_ARRAYS,
    (v) => encodeGroupBlob(1, 1, v, [1], bytes(32)),
    ["encodeGroupBlob", "positions"],
  ),
  ...rowsFor(
    "encodeGroupBlob depthOffsets",
    NOT_ARRAYS,
    (v) => encodeGroupBlob(1, 1, [0], v, bytes(32)),
    ["encodeGroupBlob", "depthOffsets"],
  ),
  ...rowsFor(
    "encodeGroupBlobInto positions",
    NOT_ARRAYS,
    (v) => encodeGroupBlobInto(1, 1, v, [1], bytes(32), bytes(100), 0),
    ["encodeGroupBlobInto", "positions"],
  ),
  ...rowsFor(
    "encodeGroupBlobInto depthOffsets",
    NOT_ARRAYS,
    (v) => encodeGroupBlobInto(1, 1, [0], v, bytes(32), bytes(100), 0),
    ["encodeGroupBlobInto", "depthOffsets"],
  ),
  ...rowsFor(
    "encodeStemBlobFromSlots slots",
    [...NOT_ARRAYS, ["a 256-character string", "x".repeat(256)]],
    (v) => encodeStemBlobFromSlots(bytes(31), v),
    ["encodeStemBlobFromSlots", "slots"],
  ),
  ...rowsFor(
    "encodeGroupBlobFromEntries entries",
    [
      ["null", null],
      ["undefined", undefined],
      ["a number", 5],
      ["a string", "ab"],
      ["a plain object", {}],
      ["an array-like that is not iterable", { length: 1, 0: ENTRY }],
    ],
    (v) => encodeGroupBlobFromEntries(1, v),
    ["encodeGroupBlobFromEntries", "entries"],
  ),
  ...rowsFor(
    "groupEntries group.positions",
    NOT_ARRAYS,
    (v) => groupEntries({ ...GROUP, positions: v }),
    ["groupEntries", "group.positions"],
  ),
  ...rowsFor(
    "groupEntries group.depthOffsets",
    NOT_ARRAYS,
    (v) => groupEntries({ ...GROUP, depthOffsets: v }),
    ["groupEntries", "group.depthOffsets"],
  ),
];

const NOT_ELEMENTS: [string, unknown][] = [
  ["null", null],
  ["undefined", undefined],
  ["a numeric string", "0"],
  ["a bigint", 0n],
  ["an object", {}],
  ["NaN", Number.NaN],
];

const ELEMENTS: Row[] = [
  ...rowsFor(
    "encodeGroupBlob positions[0]",
    NOT_ELEMENTS,
    (v) => encodeGroupBlob(1, 1, [v], [1], bytes(32)),
    ["group entry 0", "position"],
  ),
  ...rowsFor(
    "encodeGroupBlob depthOffsets[0]",
    NOT_ELEMENTS,
    (v) => encodeGroupBlob(1, 1, [0], [v], bytes(32)),
    ["group entry 0", "depth offset"],
  ),
  ...rowsFor(
    "encodeGroupBlobInto positions[1]",
    NOT_ELEMENTS,
    (v) => encodeGroupBlobInto(1, 2, [0, v], [1, 1], bytes(64), bytes(100), 0),
    ["group entry 1", "position"],
  ),
  ...rowsFor(
    "encodeStemBlobFromSlots slots[3]",
    [
      ["a number", 5],
      ["a string", "x".repeat(32)],
      ["a plain array", zeros(32)],
      ["a Uint16Array", new Uint16Array(32)],
      ["an object", {}],
    ],
    (v) => {
      const slots: unknown[] = new Array(256);
      slots[3] = v;
      return encodeStemBlobFromSlots(bytes(31), slots as Uint8Array[]);
    },
    ["encodeStemBlobFromSlots", "subindex 3"],
  ),
  ...rowsFor(
    "encodeGroupBlobFromEntries entries[1]",
    [
      ["null", null],
      ["a number", 5],
      ["a string", "ab"],
    ],
    (v) => encodeGroupBlobFromEntries(1, [ENTRY, v]),
    ["encodeGroupBlobFromEntries", "entries[1]"],
  ),
  ...rowsFor(
    "encodeGroupBlobFromEntries entries[0].position",
    NOT_ELEMENTS,
    (v) => encodeGroupBlobFromEntries(1, [{ ...ENTRY, position: v }]),
    ["encodeGroupBlobFromEntries", "entries[0].position"],
  ),
  ...rowsFor(
    "encodeGroupBlobFromEntries entries[0].depthOffset",
    NOT_ELEMENTS,
    (v) => encodeGroupBlobFromEntries(1, [{ ...ENTRY, depthOffset: v }]),
    ["encodeGroupBlobFromEntries", "entries[0].depthOffset"],
  ),
  ...rowsFor(
    "encodeGroupBlobFromEntries entries[0].hash",
    notBytes(32),
    (v) => encodeGroupBlobFromEntries(1, [{ ...ENTRY, hash: v }]),
    ["encodeGroupBlobFromEntries", "entries[0].hash"],
  ),
  ...rowsFor(
    "groupEntries group.positions[1]",
    NOT_ELEMENTS,
    (v) => groupEntries({ ...GROUP, positions: [0, v] as Any }),
    ["group entry 1", "position"],
  ),
  ...rowsFor(
    "groupEntries group.depthOffsets[0]",
    NOT_ELEMENTS,
    (v) => groupEntries({ ...GROUP, depthOffsets: [v, 1] as Any }),
    ["group entry 0", "depth offset"],
  ),
];

const NOT_OBJECTS: [string, unknown][] = [
  ["null", null],
  ["undefined", undefined],
  ["a number", 5],
  ["a string", "ab"],
];

const RECORDS: Row[] = [
  ...rowsFor("stemBlobValue blob", NOT_OBJECTS, (v) => stemBlobValue(v, 3), [
    "stemBlobValue",
    "blob",
  ]),
  ...rowsFor("groupEntries group", NOT_OBJECTS, (v) => groupEntries(v), ["groupEntries", "group"]),
  ...rowsFor(
    "groupEntries group.groupDepth",
    notIntegers(),
    (v) => groupEntries({ ...GROUP, groupDepth: v }),
    ["groupEntries", "group.groupDepth"],
  ),
  ...rowsFor(
    "groupEntries group.count",
    notIntegers(),
    (v) => groupEntries({ ...GROUP, count: v }),
    ["groupEntries", "group.count"],
  ),
  ...rowsFor(
    "BitArray#equals other",
    [
      ["null", null],
      ["undefined", undefined],
      ["a number", 5],
      ["a plain object", {}],
      ["an object with BitArray's prototype", Object.create(BitArray.prototype)],
      ["a Uint8Array", bytes(32)],
    ],
    (v) => new BitArray(1).equals(v),
    ["BitArray.equals", "other"],
  ),
];

// Values of the right type in the wrong amount, which used to be read past or silently cut.
const SHAPES: Row[] = [
  [
    "groupEntries with fewer hash bytes than entries",
    () => groupEntries({ ...GROUP, hashes: bytes(32) }),
    ["2-entry group", "64 hash bytes"],
  ],
  [
    "groupEntries with fewer positions than entries",
    () => groupEntries({ ...GROUP, positions: Uint16Array.of(0) }),
    ["2-entry group", "2 positions"],
  ],
  [
    "stemBlobValue with values shorter than its bitmap",
    () => stemBlobValue({ ...STEM, values: bytes(16) }, 3),
    ["stemBlobValue", "blob.values", "16 bytes"],
  ],
  [
    "stemBlobValue with a 31-byte bitmap",
    () => stemBlobValue({ ...STEM, bitmap: bytes(31) }, 3),
    ["stemBlobValue", "blob.bitmap", "32 bytes"],
  ],
];

const TABLES: [string, Row[]][] = [
  ["byte arguments (Uint8Array only)", BYTE_ARGUMENTS],
  ["integer arguments", [...INTEGER_ARGUMENTS, ...MORE_INTEGER_ARGUMENTS]],
  ["BitArray values", [...BIT_ARRAY_VALUES, ...FROM_UINT_VALUES]],
  ["list arguments", LIST_ARGUMENTS],
  ["list elements", ELEMENTS],
  ["record arguments", RECORDS],
  ["record shapes", SHAPES],
];

for (const [table, rows] of TABLES) {
  describe(`argument types: ${table}`, () => {
    it.each(rows)("%s -> CodecError INVALID_ARGUMENT", (_name, action, mentions) => {
      const error = catchCodecError(action);
      expect(error.code).toBe("INVALID_ARGUMENT");
      for (const mention of mentions) {
        expect(error.message).toContain(mention);
      }
    });
  });
}

describe("argument types: the cases the review reported", () => {
  const reported: [name: string, action: () => unknown, message: string][] = [
    [
      "decodeNode(null)",
      () => decodeNode(null as Any),
      "decodeNode: blob must be a Uint8Array, got null",
    ],
    [
      "decodeNode(plain array)",
      () => decodeNode([1, ...zeros(63)] as Any),
      "decodeNode: blob must be a Uint8Array, got an array of 64 elements",
    ],
    [
      "decodeStemBlob(null)",
      () => decodeStemBlob(null as Any),
      "decodeStemBlob: blob must be a Uint8Array, got null",
    ],
    [
      "decodeGroupBlob(null)",
      () => decodeGroupBlob(null as Any),
      "decodeGroupBlob: blob must be a Uint8Array, got null",
    ],
    [
      "decodeInternalBlob(null)",
      () => decodeInternalBlob(null as Any),
      "decodeInternalBlob: blob must be a Uint8Array, got null",
    ],
    [
      "decodePathKey(null)",
      () => decodePathKey(null as Any),
      "decodePathKey: key must be a Uint8Array, got null",
    ],
    [
      "encodeGroupBlob with a plain array of hashes",
      () => encodeGroupBlob(1, 1, [0], [1], zeros(64) as Any),
      "encodeGroupBlob: hashes must be a Uint8Array, got an array of 64 elements",
    ],
    [
      "encodeGroupBlobInto with a number as out",
      () => encodeGroupBlobInto(1, 1, [0], [1], bytes(32), 5 as Any, 0),
      "encodeGroupBlobInto: out must be a Uint8Array, got 5",
    ],
    [
      "encodeGroupBlobFromEntries(1, null)",
      () => encodeGroupBlobFromEntries(1, null as Any),
      "encodeGroupBlobFromEntries: entries must be an array or another iterable, got null",
    ],
    [
      "encodeGroupBlob with a Uint16Array of hashes",
      () => encodeGroupBlob(1, 1, [0], [1], new Uint16Array(32) as Any),
      "encodeGroupBlob: hashes must be a Uint8Array, got a Uint16Array of 32 elements",
    ],
    [
      "encodePathKey(5, 8)",
      () => encodePathKey(5 as Any, 8),
      "encodePathKey: bits must be a Uint8Array, got 5",
    ],
    [
      'nodeDbKey(pathKey, "vA")',
      () => nodeDbKey(bytes(2), "vA" as Any),
      'nodeDbKey: prefix must be a Uint8Array, got "vA"',
    ],
    [
      'popcount("ab")',
      () => popcount("ab" as Any),
      'popcount: bytes must be a Uint8Array, got "ab"',
    ],
    [
      "new BitArray(8, null)",
      () => new BitArray(8, null as Any),
      "bit array value must be a non-negative integer (a safe integer number or a bigint), got null",
    ],
    [
      'new BitArray(8, "ab")',
      () => new BitArray(8, "ab" as Any),
      'bit array value must be a non-negative integer (a safe integer number or a bigint), got "ab"',
    ],
    [
      'new BitArray(8, "5")',
      () => new BitArray(8, "5" as Any),
      'bit array value must be a non-negative integer (a safe integer number or a bigint), got "5"',
    ],
    [
      "new BitArray(1).equals({})",
      () => new BitArray(1).equals({} as Any),
      "BitArray.equals: other must be a BitArray, got an object",
    ],
  ];
  it.each(reported)("%s", (_name, action, message) => {
    const error = catchCodecError(action);
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(error.message).toBe(message);
  });

  it("describes a value in O(1), even one whose traps throw", () => {
    const hostile = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error("trap");
        },
      },
    );
    expect(catchCodecError(() => new BitArray(1).equals(hostile as Any)).message).toBe(
      "BitArray.equals: other must be a BitArray, got an object",
    );
    const long = "x".repeat(10_000);
    expect(catchCodecError(() => decodeNode(long as Any)).message.length).toBeLessThan(100);
    expect(catchCodecError(() => decodeNode(new Map() as Any)).message).toContain("got a Map");
    expect(catchCodecError(() => decodeNode(new Int8Array(2) as Any)).message).toContain(
      "got an Int8Array of 2 elements",
    );
  });
});

describe("argument types: what is still accepted", () => {
  it("takes a Uint8Array subclass (Node's Buffer) wherever bytes are expected", () => {
    const blob = Buffer.from(STEM_BLOB);
    expect(decodeNode(blob).kind).toBe("stem");
    expect(decodeStemBlob(blob).count).toBe(1);
    const key = Buffer.from([0xa0, 3]);
    expect(decodePathKey(key).length).toBe(3);
    expect(Array.from(encodePathKey(Buffer.from([0xa0]), 3))).toEqual([0xa0, 3]);
    expect(Array.from(nodeDbKey(key, Buffer.from("vA")))).toEqual([0x76, 0x41, 0xa0, 3]);
    expect(comparePathKeys(key, Buffer.from([0xa0, 3]))).toBe(0);
    expect(popcount(Buffer.from([0xff]))).toBe(8);
    const out = Buffer.alloc(100);
    expect(encodeGroupBlobInto(1, 1, [0], [1], Buffer.alloc(32, 1), out, 0)).toBe(36);
    expect(BitArray.fromPathKey(key).equals(BitArray.fromUint(3, 5))).toBe(true);
  });

  it("takes typed arrays for positions and depth offsets, and any iterable of entries", () => {
    const blob = encodeGroupBlob(
      1,
      2,
      Uint16Array.of(0, 1),
      Uint8Array.of(1, 1),
      bytes(64).fill(3),
    );
    expect(decodeGroupBlob(blob).count).toBe(2);
    const entries = groupEntries(decodeGroupBlob(blob));
    expect(encodeGroupBlobFromEntries(1, new Set(entries) as Any)).toEqual(blob);
    expect(groupEntries({ ...GROUP, positions: [0, 1], depthOffsets: [1, 1] } as Any)).toHaveLength(
      2,
    );
  });

  it("takes numbers and bigints as BitArray values, and defaults where documented", () => {
    expect(new BitArray(3, 5n).equals(new BitArray(3, 5))).toBe(true);
    expect(new BitArray(8, 2n ** 70n).length).toBe(8);
    expect(new BitArray(undefined, undefined).length).toBe(0);
    expect(popcount(Uint8Array.of(1, 3), undefined, undefined)).toBe(3);
    expect(Array.from(nodeDbKey(Uint8Array.of(0x80, 1), undefined))).toEqual([0x76, 0x41, 0x80, 1]);
  });
});
