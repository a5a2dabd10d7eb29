import { describe, expect, it } from "vitest";
import {
  FIRST_KEYS,
  finalContents,
  firstCommit,
  hex,
  SECOND_NEW_KEYS,
  SECOND_UPDATES,
  secondCommit,
} from "../src/index.js";

describe("the reload workload", () => {
  it("has distinct keys, and its final contents keep each key's last value", () => {
    const first = firstCommit();
    const second = secondCommit();
    expect(first).toHaveLength(FIRST_KEYS);
    expect(second).toHaveLength(SECOND_UPDATES + SECOND_NEW_KEYS);
    expect(new Set(first.map((e) => hex(e.key))).size).toBe(FIRST_KEYS);
    const final = finalContents();
    expect(final).toHaveLength(FIRST_KEYS + SECOND_NEW_KEYS);
    const byKey = new Map(final.map((e) => [hex(e.key), e.value]));
    for (const entry of second) expect(byKey.get(hex(entry.key))).toEqual(entry.value);
    expect(byKey.get(hex(first[1]!.key))).toEqual(first[1]!.value);
  });
});
