import { describe, expect, it } from "vitest";
import { expectedOutput, outputMismatch } from "../src/expected-output.js";
import { extractBlocks } from "../src/extract.js";

const README = [
  "# x",
  "```ts portable",
  'console.log("0xabcd"); // → 0xab…',
  "console.log(2n); // → 2n",
  "```",
  "```sh no-run",
  "echo hi  # → hi",
  "```",
  "```",
  "a diagram",
  "```",
].join("\n");

describe("block extraction and expected output", () => {
  it("reads language, markers, line and the → comments", () => {
    const [ts, sh, ...rest] = extractBlocks(README, "packages/x/README.md");
    expect(rest).toEqual([]);
    expect(ts!.language).toBe("ts");
    expect([...ts!.markers]).toEqual(["portable"]);
    expect(ts!.line).toBe(2);
    expect(ts!.id).toBe("packages-x-L2");
    expect(expectedOutput(ts!)).toEqual(["0xab…", "2n"]);
    expect(expectedOutput(sh!)).toEqual(["hi"]);
  });

  it("refuses an unknown marker instead of skipping the block", () => {
    expect(() => extractBlocks("```ts no-runn\n```\n", "README.md")).toThrow(/no-runn/);
  });

  it("matches expected lines in order, … as a wildcard, and reports a missing one", () => {
    expect(outputMismatch(["0xab…", "2n"], "x\n0xabcd\ny\n2n\n")).toBeUndefined();
    expect(outputMismatch(["2n", "0xab…"], "0xabcd\n2n\n")).toMatch(/0xab…/);
    expect(outputMismatch(["0xab"], "0xabcd\n")).toMatch(/0xab/);
  });
});
