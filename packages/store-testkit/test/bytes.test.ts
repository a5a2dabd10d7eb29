import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromHex, hex, prng } from "../src/index.js";

describe("hex and fromHex", () => {
  it("spell bytes as lowercase two-digit hex, with or without 0x when parsing", () => {
    expect(hex(Uint8Array.of(0, 1, 0xab, 0xff))).toBe("0001abff");
    expect([...fromHex("0x0001abff")]).toEqual([0, 1, 0xab, 0xff]);
    expect([...fromHex("00FF")]).toEqual([0, 0xff]);
  });

  it("round-trip any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(fromHex(hex(bytes))).toEqual(bytes);
      }),
    );
  });
});

describe("prng", () => {
  it("repeats its stream for a seed and differs between seeds (seed 0 included)", () => {
    expect(prng(7)(64)).toEqual(prng(7)(64));
    expect(hex(prng(7)(32))).not.toBe(hex(prng(8)(32)));
    expect(prng(0)(32).some((b) => b !== 0)).toBe(true);
  });
});
