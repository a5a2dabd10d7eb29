import { RLP } from "@ethereumjs/rlp";
import { createTx, type TypedTxData } from "@ethereumjs/tx";
import { bytesToHex, eoaCode7702SignAuthorization, hexToBytes } from "@ethereumjs/util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commonForNetwork } from "../src/chain/common-for-network.js";
import { decodeTypedTxAsGeth } from "../src/chain/geth-typed-tx-decoding.js";

// Envelopes ethereumjs signs and serializes (an encoder independent of the decoder under test),
// then the same with one integer field re-encoded with a leading zero byte, or a one-byte value
// below 0x80 in the two-byte form: geth's RLP decoder refuses both, naming the field. The field
// names and Go types are those of geth's transaction structs (core/types); the t8n verdicts
// (geth-cases.json, rlp_*) pin whole messages as geth's evm printed them.

const KEY = hexToBytes("0xb71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291");
const common = commonForNetwork("Prague");

/**
 * Per type: geth's struct and its integer fields (index in the payload list, name, Go type):
 * chain id, nonce, the fee fields, gas, value, then the type's own and V, R, S at `signature`.
 */
function integerFields(
  struct: string,
  big: string,
  fees: string[],
  own: [number, string][],
  signature: number,
): { struct: string; fields: [number, string, string][] } {
  const gas = 2 + fees.length;
  return {
    struct,
    fields: [
      [0, "ChainID", big],
      [1, "Nonce", "uint64"],
      ...fees.map((fee, k): [number, string, string] => [2 + k, fee, big]),
      [gas, "Gas", "uint64"],
      [gas + 2, "Value", big],
      ...own.map(([at, name]): [number, string, string] => [at, name, big]),
      [signature, "V", big],
      [signature + 1, "R", big],
      [signature + 2, "S", big],
    ],
  };
}
const FEES = ["GasTipCap", "GasFeeCap"];
const INTEGER_FIELDS: Record<number, ReturnType<typeof integerFields>> = {
  1: integerFields("types.AccessListTx", "*big.Int", ["GasPrice"], [], 8),
  2: integerFields("types.DynamicFeeTx", "*big.Int", FEES, [], 9),
  3: integerFields("types.BlobTx", "*uint256.Int", FEES, [[9, "BlobFeeCap"]], 11),
  4: integerFields("types.SetCodeTx", "*uint256.Int", FEES, [], 10),
};

const signedEnvelope = fc
  .record({
    type: fc.constantFrom(1, 2, 3, 4),
    nonce: fc.bigInt({ min: 0n, max: 2n ** 64n - 2n }),
    gasLimit: fc.bigInt({ min: 0n, max: 2n ** 40n }),
    tip: fc.bigInt({ min: 0n, max: 2n ** 64n }),
    extraFee: fc.bigInt({ min: 0n, max: 2n ** 64n }),
    value: fc.bigInt({ min: 0n, max: 2n ** 128n }),
    data: fc.uint8Array({ maxLength: 70 }),
    keys: fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { maxLength: 2 }),
  })
  .map(({ type, nonce, gasLimit, tip, extraFee, value, data, keys }) => {
    const to = "0x000000000000000000000000000000000000aaaa";
    const txData: Record<string, unknown> = { type, nonce, gasLimit, value, data, to };
    txData.accessList =
      keys.length === 0 ? [] : [{ address: to, storageKeys: keys.map((k) => bytesToHex(k)) }];
    if (type === 1) txData.gasPrice = tip + extraFee;
    else {
      txData.maxPriorityFeePerGas = tip;
      txData.maxFeePerGas = tip + extraFee;
    }
    if (type === 3) {
      txData.maxFeePerBlobGas = extraFee;
      txData.blobVersionedHashes = [`0x01${"ab".repeat(31)}`];
    }
    if (type === 4) {
      txData.authorizationList = [
        eoaCode7702SignAuthorization({ chainId: "0x1", address: to, nonce: "0x2" }, KEY),
      ];
    }
    const tx = createTx(txData as TypedTxData, { common }).sign(KEY);
    return tx.serialize();
  });

/** The envelope with payload field `index` re-encoded by `rewrite` (its raw bytes in, list out). */
function withField(envelope: Uint8Array, index: number, bytes: Uint8Array): Uint8Array {
  const values = RLP.decode(envelope.subarray(1)) as Uint8Array[];
  values[index] = bytes;
  const payload = RLP.encode(values);
  const out = new Uint8Array(payload.length + 1);
  out[0] = envelope[0]!;
  out.set(payload, 1);
  return out;
}

describe("typed transaction envelopes as geth decodes them", () => {
  it("takes every envelope ethereumjs signs, with valid signature values", () => {
    fc.assert(
      fc.property(signedEnvelope, (envelope) => {
        expect(decodeTypedTxAsGeth(envelope)).toEqual({ validSignature: true });
      }),
      { numRuns: 60 },
    );
  });

  it("refuses an integer field with a leading zero byte, naming it", () => {
    fc.assert(
      fc.property(signedEnvelope, fc.nat(), (envelope, pick) => {
        const { struct, fields } = INTEGER_FIELDS[envelope[0]!]!;
        const [index, name, goType] = fields[pick % fields.length]!;
        const value = (RLP.decode(envelope.subarray(1)) as Uint8Array[])[index]!;
        const padded = new Uint8Array(value.length + 1);
        padded.set(value, 1);
        // geth checks the length first: a uint64 of 9 bytes overflows, a uint256 of 33 is too
        // large (its own message, with no field: both seen from geth's t8n).
        const into = `decoding into (types.Transaction)(${struct}).${name}`;
        const error =
          goType === "uint64" && padded.length > 8
            ? `rlp: input string too long for uint64, ${into}`
            : goType === "*uint256.Int" && padded.length > 32
              ? "rlp: value too large for uint256"
              : `rlp: non-canonical integer (leading zero bytes) for ${goType}, ${into}`;
        expect(decodeTypedTxAsGeth(withField(envelope, index, padded))).toEqual({ error });
      }),
      { numRuns: 80 },
    );
  });

  it("refuses a one-byte value below 0x80 written as a string, naming the field", () => {
    fc.assert(
      fc.property(
        signedEnvelope,
        fc.nat(),
        fc.integer({ min: 1, max: 0x7f }),
        (envelope, pick, byte) => {
          const { struct, fields } = INTEGER_FIELDS[envelope[0]!]!;
          const [index, name, goType] = fields[pick % fields.length]!;
          // The payload's items encoded one by one, the picked one as 0x81 ‖ byte.
          const values = RLP.decode(envelope.subarray(1)) as Uint8Array[];
          const items = values.map((v, k) => (k === index ? [0x81, byte] : [...RLP.encode(v)]));
          const body = items.flat();
          const out = Uint8Array.of(envelope[0]!, ...listHeader(body.length), ...body);
          // A blob transaction's first field is read before the decoding proper (geth tells
          // the network form apart by it): its error then names nothing (seen from geth's t8n).
          const error =
            envelope[0] === 3 && index === 0
              ? "rlp: non-canonical size information"
              : `rlp: non-canonical size information for ${goType}, decoding into (types.Transaction)(${struct}).${name}`;
          expect(decodeTypedTxAsGeth(out)).toEqual({ error });
        },
      ),
      { numRuns: 60 },
    );
  });
});

/** An RLP list header for a payload of n bytes. */
function listHeader(n: number): number[] {
  if (n < 56) return [0xc0 + n];
  const size: number[] = [];
  for (let m = n; m > 0; m = Math.floor(m / 256)) size.unshift(m % 256);
  return [0xf7 + size.length, ...size];
}
