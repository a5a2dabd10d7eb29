import {
  bigIntToUnpaddedBytes,
  bytesToBigInt,
  ecrecover as libraryEcrecover,
  setLengthLeft,
} from "@ethereumjs/util";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ecrecover, hasNativeEcrecover } from "../src/chain/native-ecrecover.js";

/** The curve's order n. */
const N = secp256k1.Point.Fn.ORDER;

/** What a recovery gives: the key, or the error's message. */
function outcome(recover: () => Uint8Array): { key: string } | { error: string } {
  try {
    return { key: Buffer.from(recover()).toString("hex") };
  } catch (cause) {
    return { error: (cause as Error).message };
  }
}

const secretKey = fc.bigInt({ min: 1n, max: N - 1n });
const digest = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe("ecrecover: libsecp256k1 where it loads, the library's function as the reference", () => {
  it("loads the binding the secp256k1 package ships for linux-x64", () => {
    // Elsewhere it may not: recovery then is the library's, and the rest still holds.
    if (process.platform === "linux" && process.arch === "x64") {
      expect(hasNativeEcrecover()).toBe(true);
    }
  });

  it("recovers the key the library recovers, for every way a transaction spells v", () => {
    fc.assert(
      fc.property(secretKey, digest, fc.bigInt({ min: 1n, max: 1n << 48n }), (k, hash, chainId) => {
        const key = setLengthLeft(bigIntToUnpaddedBytes(k), 32);
        const sig = secp256k1.sign(hash, key, { prehash: false, format: "recovered" });
        const recovery = BigInt(sig[0]!);
        // As the library's transactions pass them: unpadded (a leading zero byte dropped).
        const r = bigIntToUnpaddedBytes(bytesToBigInt(sig.subarray(1, 33)));
        const s = bigIntToUnpaddedBytes(bytesToBigInt(sig.subarray(33)));
        const expected = secp256k1.getPublicKey(key, false).slice(1);
        for (const [v, chain] of [
          [27n + recovery, undefined],
          [recovery, undefined],
          [chainId * 2n + 35n + recovery, chainId],
        ] as const) {
          expect(ecrecover(hash, v, r, s, chain)).toStrictEqual(expected);
          expect(libraryEcrecover(hash, v, r, s, chain)).toStrictEqual(expected);
        }
      }),
      { numRuns: 200 },
    );
  });

  // The ECRECOVER precompile passes whatever a contract gives it (high s, r past the order…).
  it("fails where the library fails, with its error, and agrees on arbitrary r and s", () => {
    const word = fc.oneof(
      fc.uint8Array({ minLength: 0, maxLength: 33 }),
      fc.constantFrom(0n, 1n, N - 1n, N, N + 1n, (1n << 256n) - 1n).map(bigIntToUnpaddedBytes),
    );
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 31, maxLength: 33 }),
        fc.constantFrom(0n, 1n, 2n, 27n, 28n, 29n, 37n, 38n, 39n),
        word,
        word,
        fc.option(fc.constant(1n), { nil: undefined }),
        (hash, v, r, s, chainId) => {
          expect(outcome(() => ecrecover(hash, v, r, s, chainId))).toStrictEqual(
            outcome(() => libraryEcrecover(hash, v, r, s, chainId)),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});
