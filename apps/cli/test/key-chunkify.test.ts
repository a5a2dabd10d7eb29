import { describe, expect, it } from "vitest";
import { lines, runAll, runCli } from "./helpers/run-cli.js";
import { referenceVectors } from "./helpers/vectors.js";

const SCHEMES = ["sha256-be", "sha256-le", "blake3-be", "blake3-le"] as const;
const vectors = referenceVectors();

describe("key", () => {
  it("equals tree_key_vectors.account_embedding for every address, field and scheme", async () => {
    const jobs = vectors.tree_key_vectors.account_embedding.flatMap((account) =>
      SCHEMES.map((scheme) => ({ account, scheme })),
    );
    const results = await runAll(
      jobs.map(({ account, scheme }) => () => {
        const args = ["key", account.address, "--scheme", scheme, "--basic-data", "--code-hash"];
        for (const s of account.storage_slots) args.push("--slot", s.slot);
        for (const c of account.code_chunks) args.push("--chunk", String(c.chunk_id));
        return runCli(args);
      }),
    );
    expect(results).toHaveLength(24);
    results.forEach((result, i) => {
      const { account, scheme } = jobs[i]!;
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(lines(result.stdout)).toEqual([
        account.basic_data[scheme],
        account.code_hash[scheme],
        ...account.storage_slots.map((s) => s.key[scheme]),
        ...account.code_chunks.map((c) => c.key[scheme]),
      ]);
    });
  });

  it("defaults to the basic-data key with sha256-be; decimal slots; --json", async () => {
    const account = vectors.tree_key_vectors.account_embedding[4]!;
    const slot = account.storage_slots.find((s) => BigInt(s.slot) === 64n)!;
    const [plain, json] = await runAll([
      () => runCli(["key", account.address]),
      () => runCli(["key", account.address, "--slot", "64", "--chunk", "128", "--json"]),
    ]);
    expect(plain!.stdout).toBe(`${account.basic_data["sha256-be"]}\n`);
    const chunk = account.code_chunks.find((c) => c.chunk_id === 128)!;
    expect(JSON.parse(json!.stdout)).toEqual({
      address: account.address,
      scheme: "sha256-be",
      keys: [
        { kind: "slot", slot: "64", key: slot.key["sha256-be"] },
        { kind: "chunk", chunk: "128", key: chunk.key["sha256-be"] },
      ],
    });
  });

  it.each([
    [["key", "0x1234"], /ADDRESS must be 20 bytes/],
    [["key", `0x${"zz".repeat(20)}`], /ADDRESS .* is not hex/],
    [
      ["key", `0x${"11".repeat(20)}`, "--slot", `0x${"00".repeat(33)}`],
      /--slot must be at most 32 bytes/,
    ],
    [["key", `0x${"11".repeat(20)}`, "--slot", "ten"], /--slot "ten" must be 0x-hex/],
    [["key", `0x${"11".repeat(20)}`, "--chunk", "-1"], /--chunk/],
    [["key", `0x${"11".repeat(20)}`, "--scheme", "md5-be"], /argument 'md5-be' is invalid/],
  ])("bad input %j: exit 2, one line", async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(lines(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });
});

describe("chunkify", () => {
  it("equals every chunkify vector", async () => {
    const results = await runAll(
      vectors.chunkify_vectors.map((v) => () => runCli(["chunkify", v.code])),
    );
    results.forEach((result, i) => {
      expect(result.code).toBe(0);
      expect(lines(result.stdout)).toEqual(vectors.chunkify_vectors[i]!.chunks);
    });
    const json = await runCli(["chunkify", vectors.chunkify_vectors[3]!.code, "--json"]);
    expect(JSON.parse(json.stdout)).toEqual(vectors.chunkify_vectors[3]!.chunks);
  });

  it("rejects odd-length hex with exit 2", async () => {
    const result = await runCli(["chunkify", "0x600"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'bintrie chunkify: HEXCODE "0x600" has an odd number of hex digits\n',
    );
  });
});
