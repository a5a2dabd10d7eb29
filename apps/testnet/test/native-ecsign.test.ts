import { Common, Mainnet } from "@ethereumjs/common";
import { createTx } from "@ethereumjs/tx";
import { bigIntToBytes, bytesToHex, setLengthLeft } from "@ethereumjs/util";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commonForNetwork } from "../src/chain/common-for-network.js";
import { ecsign } from "../src/chain/native-ecsign.js";
import { nativeSecp256k1 } from "../src/chain/native-secp256k1.js";

/** The curve's order n. */
const N = secp256k1.Point.Fn.ORDER;
const AS_THE_LIBRARY_SIGNS = { prehash: false, format: "recovered", extraEntropy: false } as const;

/** What a signing gives: the signature's hex, or the error's message. */
function outcome(sign: () => Uint8Array): { signature: string } | { error: string } {
  try {
    return { signature: bytesToHex(sign()) };
  } catch (cause) {
    return { error: (cause as Error).message };
  }
}

const secretKey = fc
  .bigInt({ min: 1n, max: N - 1n })
  .map((k) => setLengthLeft(bigIntToBytes(k), 32));
const digest = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe("ecsign: libsecp256k1 where it loads, noble's sign as the reference", () => {
  it("loads the binding the secp256k1 package ships for linux-x64", () => {
    if (process.platform === "linux" && process.arch === "x64") {
      expect(nativeSecp256k1()).not.toBeNull();
    }
  });

  it("makes noble's signature, byte for byte, for the options the library signs with", () => {
    fc.assert(
      fc.property(secretKey, digest, (key, hash) => {
        expect(ecsign(hash, key, AS_THE_LIBRARY_SIGNS)).toStrictEqual(
          secp256k1.sign(hash, key, AS_THE_LIBRARY_SIGNS),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("fails where noble fails, with its error: keys 0, n and past it, and keys not 32 bytes", () => {
    const badKey = fc.oneof(
      fc
        .constantFrom(0n, N, N + 1n, (1n << 256n) - 1n)
        .map((k) => setLengthLeft(bigIntToBytes(k), 32)),
      fc.uint8Array({ minLength: 0, maxLength: 33 }).filter((k) => k.length !== 32),
    );
    // A 32-byte digest as often as any other (fast-check favours short arrays).
    const anyDigest = fc.oneof(digest, fc.uint8Array({ minLength: 0, maxLength: 40 }));
    fc.assert(
      fc.property(badKey, anyDigest, (key, hash) => {
        expect(outcome(() => ecsign(hash, key, AS_THE_LIBRARY_SIGNS))).toStrictEqual(
          outcome(() => secp256k1.sign(hash, key, AS_THE_LIBRARY_SIGNS)),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("leaves other options to noble: hashing first, compact form, high s allowed", () => {
    fc.assert(
      fc.property(
        secretKey,
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.constantFrom(
          { prehash: true, format: "recovered" } as const,
          { prehash: false, format: "compact" } as const,
          { prehash: false, format: "recovered", lowS: false } as const,
          {},
        ),
        (key, message, opts) => {
          expect(outcome(() => ecsign(message, key, opts))).toStrictEqual(
            outcome(() => secp256k1.sign(message, key, opts)),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it("with extra entropy (a hedged, random signature) signs as noble does: one the key recovers from", () => {
    const key = setLengthLeft(bigIntToBytes(12345n), 32);
    const hash = new Uint8Array(32).fill(7);
    const signature = ecsign(hash, key, { ...AS_THE_LIBRARY_SIGNS, extraEntropy: true });
    const recovered = secp256k1.Signature.fromBytes(signature, "recovered").recoverPublicKey(hash);
    expect(recovered.toBytes()).toStrictEqual(secp256k1.getPublicKey(key));
  });

  it("a fixture network's transactions sign as the library's own Common signs them", () => {
    fc.assert(
      fc.property(secretKey, fc.bigInt({ min: 0n, max: (1n << 64n) - 2n }), (key, nonce) => {
        const data = {
          nonce,
          gasLimit: 21000n,
          gasPrice: 10n,
          to: `0x${"11".repeat(20)}` as const,
          value: 1n,
        };
        const ours = createTx(data, { common: commonForNetwork("Prague") }).sign(key);
        const library = createTx(data, {
          common: new Common({ chain: Mainnet, hardfork: "prague" }),
        }).sign(key);
        expect(bytesToHex(ours.serialize())).toBe(bytesToHex(library.serialize()));
      }),
      { numRuns: 50 },
    );
  });
});
