import { describe, expect, it } from "vitest";
import { lines, runAll, runCli } from "./helpers/run-cli.js";
import { referenceVectors } from "./helpers/vectors.js";

const SCHEMES = ["sha256-be", "sha256-le", "blake3-be", "blake3-le"] as const;
const vectors = referenceVectors();

describe("key", () => {
  it("equals tree_key_vectors.account_embedding for every address, field and scheme", async () => {
    const accounts = vectors.tree_key_vectors.account_embedding;
    // One run per scheme, all six addresses at once; then one run per address (sha256-be).
    const perScheme = await runAll(
      SCHEMES.map((scheme) => () => {
        const args = ["key", ...accounts.map((a) => a.address), "--scheme", scheme];
        args.push("--basic-data", "--code-hash");
        for (const s of accounts[0]!.storage_slots) args.push("--slot", s.slot);
        for (const c of accounts[0]!.code_chunks) args.push("--chunk", String(c.chunk_id));
        return runCli(args);
      }),
    );
    perScheme.forEach((result, i) => {
      const scheme = SCHEMES[i]!;
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(lines(result.stdout)).toEqual(
        accounts.flatMap((account) => {
          // Every account of the vectors lists the same slots and chunks.
          expect(account.storage_slots.map((s) => s.slot)).toEqual(
            accounts[0]!.storage_slots.map((s) => s.slot),
          );
          return [
            account.basic_data[scheme],
            account.code_hash[scheme],
            ...account.storage_slots.map((s) => s.key[scheme]),
            ...account.code_chunks.map((c) => c.key[scheme]),
          ];
        }),
      );
    });
    const single = await runAll(
      accounts.map((account) => () => runCli(["key", account.address, "--code-hash"])),
    );
    single.forEach((result, i) => {
      expect(result.stdout).toBe(`${accounts[i]!.code_hash["sha256-be"]}\n`);
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
        // The slot as `storage --json` prints it, whatever its spelling on the command line.
        { kind: "slot", slot: `0x${"00".repeat(31)}40`, key: slot.key["sha256-be"] },
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
    [
      ["key", `0x${"11".repeat(20)}`, "--slot", "ten"],
      /--slot "ten" must be a decimal number or 0x followed by hex digits/,
    ],
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
    const codes = vectors.chunkify_vectors.map((v) => v.code);
    const [json, text] = await runAll([
      () => runCli(["chunkify", ...codes, "--json"]),
      () => runCli(["chunkify", vectors.chunkify_vectors[3]!.code]),
    ]);
    expect(json!.code).toBe(0);
    expect(lines(json!.stdout).map((line) => JSON.parse(line))).toEqual(
      vectors.chunkify_vectors.map((v) => v.chunks),
    );
    expect(lines(text!.stdout)).toEqual(vectors.chunkify_vectors[3]!.chunks);
  });

  it("rejects odd-length hex with exit 2", async () => {
    const result = await runCli(["chunkify", "0x600"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'bintrie chunkify: HEXCODE "0x600" has an odd number of hex digits\n',
    );
  });
});
