import { describe, expect, it } from "vitest";
import {
  FLAT_INTERNAL_BLOB_SIZE,
  HASH_SIZE,
  MAX_DEPTH,
  MAX_GROUP_DEPTH,
  MAX_PATH_KEY_SIZE,
  NODE_KEY_PREFIX,
  NODE_TYPE_INTERNAL,
  NODE_TYPE_STEM,
  STEM_BITMAP_SIZE,
  STEM_BLOB_HEADER_SIZE,
  STEM_SIZE,
  STEM_WIDTH,
} from "../src/index.js";
import { bytesToHex } from "./hex.js";

describe("constants (spec 1.1, 3.1, 3.4)", () => {
  it("match geth's values", () => {
    expect(STEM_SIZE).toBe(31);
    expect(HASH_SIZE).toBe(32);
    expect(STEM_BITMAP_SIZE).toBe(32);
    expect(STEM_WIDTH).toBe(256);
    expect(NODE_TYPE_STEM).toBe(1);
    expect(NODE_TYPE_INTERNAL).toBe(2);
    expect(MAX_GROUP_DEPTH).toBe(8);
    expect(MAX_DEPTH).toBe(248);
    expect(FLAT_INTERNAL_BLOB_SIZE).toBe(65);
    expect(STEM_BLOB_HEADER_SIZE).toBe(64);
    expect(MAX_PATH_KEY_SIZE).toBe(32);
  });

  it('NODE_KEY_PREFIX is "vA"', () => {
    expect(bytesToHex(NODE_KEY_PREFIX)).toBe("7641");
    expect(new TextDecoder().decode(NODE_KEY_PREFIX)).toBe("vA");
  });
});
