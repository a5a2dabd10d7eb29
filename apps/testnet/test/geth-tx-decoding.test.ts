import { RLP } from "@ethereumjs/rlp";
import { createLegacyTx, createTx, createTxFromRLP, type TypedTxData } from "@ethereumjs/tx";
import {
  bigIntToUnpaddedBytes,
  bytesToHex,
  eoaCode7702SignAuthorization,
  hexToBytes,
  toChecksumAddress,
} from "@ethereumjs/util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commonForNetwork } from "../src/chain/common-for-network.js";
import { INVALID_SIGNATURE_VALUES } from "../src/chain/geth-signature-values.js";
import {
  decodeTypedTxAsGeth,
  type LegacyTxNumbers,
  readTxListAsGeth,
} from "../src/chain/geth-tx-decoding.js";
import { legacySignature, legacyTxFields } from "../src/t8n/legacy-tx-fields.js";
import { typedJsonEnvelope } from "../src/t8n/typed-tx-fields.js";

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
        expect(decodeTypedTxAsGeth(envelope)).toEqual({ chainId: 1n, validSignature: true });
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

// Legacy transactions ethereumjs signs, with and without EIP-155's chain id (v 37/38 on chain 1,
// 27/28): geth's LegacyTx decoding gives the same numbers, and its signer the sender ethereumjs
// recovers. ethereumjs is the independent reference here; the t8n verdicts (geth-cases.json,
// rlp_legacy_*) pin geth's own words where ethereumjs refuses a transaction geth takes.
const signedLegacy = fc
  .record({
    protectedSignature: fc.boolean(),
    nonce: fc.bigInt({ min: 0n, max: 2n ** 64n - 2n }),
    gasPrice: fc.bigInt({ min: 0n, max: 2n ** 128n }),
    gasLimit: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    value: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
    data: fc.uint8Array({ maxLength: 70 }),
    create: fc.boolean(),
  })
  .map(({ protectedSignature, create, ...fields }) => {
    const to = create ? undefined : "0x000000000000000000000000000000000000aaaa";
    // Spurious Dragon on: EIP-155's chain id unless it is turned off for this transaction.
    const txCommon = protectedSignature ? common : commonForNetwork("Homestead");
    return createLegacyTx({ ...fields, to }, { common: txCommon }).sign(KEY);
  });

/**
 * A legacy transaction (its RLP list) read by geth's t8n as the only one of a txs.rlp list: what
 * geth reports at index 0 (after a decoding error it reads on inside the list; not looked at here).
 */
function decodeLegacyTxAsGeth(
  encoded: Uint8Array,
): { error: string } | { numbers: LegacyTxNumbers } {
  const read = readTxListAsGeth(Uint8Array.of(...listHeader(encoded.length), ...encoded));
  if ("malformed" in read) throw new Error(read.malformed);
  const { items, stuck } = read;
  const item = items[0]!;
  if ("envelope" in item) throw new Error("read as a typed envelope");
  if ("error" in item) return { error: item.error };
  expect(item.legacy).toEqual(encoded);
  expect([items.length, stuck]).toEqual([1, undefined]);
  return { numbers: item.numbers };
}

describe("legacy transactions as geth decodes and signs them", () => {
  it("decodes every transaction ethereumjs signs to its numbers, and recovers its sender", () => {
    fc.assert(
      fc.property(signedLegacy, (tx) => {
        const encoded = tx.serialize();
        const geth = decodeLegacyTxAsGeth(encoded);
        expect(geth).toEqual({
          numbers: {
            nonce: tx.nonce,
            gasPrice: tx.gasPrice,
            gas: tx.gasLimit,
            value: tx.value,
            v: tx.v,
            r: tx.r,
            s: tx.s,
          },
        });
        if (!("numbers" in geth)) return;
        const signature = legacySignature(tx.raw(), geth.numbers, common);
        expect("id" in signature).toBe(true);
        if ("error" in signature) return;
        const fields = legacyTxFields(geth.numbers, signature);
        expect(fields).toMatchObject({
          from: toChecksumAddress(tx.getSenderAddress().toString()),
          nonce: tx.nonce,
          gasLimit: tx.gasLimit,
          gasPrice: tx.gasPrice,
          value: tx.value,
        });
      }),
      { numRuns: 40 },
    );
  });

  it("refuses an integer field with a leading zero byte, naming it", () => {
    const names = ["Nonce", "GasPrice", "Gas", "To", "Value", "Data", "V", "R", "S"];
    fc.assert(
      fc.property(signedLegacy, fc.constantFrom(0, 1, 2, 4, 6, 7, 8), (tx, index) => {
        const values = RLP.decode(tx.serialize()) as Uint8Array[];
        values[index] = Uint8Array.of(0, ...values[index]!);
        const goType = index === 0 || index === 2 ? "uint64" : "*big.Int";
        const into = `decoding into (types.Transaction)(types.LegacyTx).${names[index]}`;
        const error =
          goType === "uint64" && values[index]!.length > 8
            ? `rlp: input string too long for uint64, ${into}`
            : `rlp: non-canonical integer (leading zero bytes) for ${goType}, ${into}`;
        expect(decodeLegacyTxAsGeth(RLP.encode(values))).toEqual({ error });
      }),
      { numRuns: 40 },
    );
  });

  it("takes numbers over 256 bits, and a list short of a field is too few elements", () => {
    fc.assert(
      fc.property(
        signedLegacy,
        fc.constantFrom(1, 4, 6, 7, 8),
        fc.bigInt({ min: 2n ** 256n, max: 2n ** 400n }),
        (tx, index, big) => {
          const values = RLP.decode(tx.serialize()) as Uint8Array[];
          values[index] = bigIntToUnpaddedBytes(big);
          const geth = decodeLegacyTxAsGeth(RLP.encode(values));
          const name = ["", "gasPrice", "", "", "value", "", "v", "r", "s"][index]!;
          expect(geth).toMatchObject({ numbers: { [name]: big } });
          // An R or S over 256 bits, or a V no chain id explains, is refused by the signer.
          if (index >= 6 && "numbers" in geth) {
            expect(legacySignature(values, geth.numbers, common)).toMatchObject({
              error:
                index === 6
                  ? expect.stringMatching(/^invalid chain id for signer: have \d+ want 1$/)
                  : INVALID_SIGNATURE_VALUES,
            });
          }
          expect(decodeLegacyTxAsGeth(RLP.encode(values.slice(0, 8)))).toEqual({
            error: "rlp: too few elements for types.LegacyTx",
          });
        },
      ),
      { numRuns: 30 },
    );
  });
});

// How geth's t8n reads a txs.rlp list (t8ntool's rlpTxIterator over one RLP stream), from its
// code: every transaction of a well-formed list once; after a legacy transaction it fails to
// decode, the rest of that transaction's list and nothing after it. The geth-cases.json
// verdicts (rlp_legacy_*) pin the same on geth's own output.
describe("a txs.rlp list as geth's t8n reads it", () => {
  it("reads each transaction of a well-formed list once, in order", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(signedLegacy, signedEnvelope), { maxLength: 5 }), (txs) => {
        const encoded = txs.map((tx) => (tx instanceof Uint8Array ? tx : tx.serialize()));
        const read = readTxListAsGeth(RLP.encode(encoded.map((tx) => wrapped(tx))));
        expect(read).toEqual({
          items: encoded.map((tx) =>
            tx[0]! >= 0xc0 ? { legacy: tx, numbers: expect.anything() } : { envelope: tx },
          ),
        });
      }),
      { numRuns: 30 },
    );
  });

  it("after a legacy transaction it fails to decode, reads the rest of its list and stops", () => {
    fc.assert(
      fc.property(signedLegacy, signedEnvelope, (legacy, envelope) => {
        const values = RLP.decode(legacy.serialize()) as Uint8Array[];
        // A V with a leading zero byte: R and S (32-byte strings, or shorter) follow it.
        values[6] = Uint8Array.of(0, ...values[6]!);
        const read = readTxListAsGeth(RLP.encode([values, envelope]));
        const rest = values
          .slice(7)
          .map((field) =>
            field.length === 1 && field[0]! < 0x80
              ? { error: "typed transaction too short" }
              : expect.anything(),
          );
        expect(read).toMatchObject({
          items: [
            {
              error:
                "rlp: non-canonical integer (leading zero bytes) for *big.Int, decoding into (types.Transaction)(types.LegacyTx).V",
            },
            ...rest,
          ],
        });
        // The envelope after the broken list is never read.
        if ("items" in read && read.stuck === undefined) expect(read.items.length).toBe(3);
      }),
      { numRuns: 30 },
    );
  });

  it("says where geth would read one value forever, and refuses a list that is not one", () => {
    const legacy = RLP.decode(
      createLegacyTx({ gasPrice: 5n, gasLimit: 21000n }, { common }).sign(KEY).serialize(),
    ) as Uint8Array[];
    // A nonce with a leading zero byte: then a gas price of one byte below 0x80, with more after
    // it, which geth refuses as a transaction (index 1) and then reads again without its header
    // (index 2 on: the read that no longer moves).
    legacy[0] = Uint8Array.of(0, 1);
    expect(readTxListAsGeth(RLP.encode([legacy]))).toEqual({
      items: [
        {
          error:
            "rlp: non-canonical integer (leading zero bytes) for uint64, decoding into (types.Transaction)(types.LegacyTx).Nonce",
        },
        { error: "typed transaction too short" },
        { error: "typed transaction too short" },
      ],
      stuck: 2,
    });
    expect(readTxListAsGeth(Uint8Array.of(0x01))).toEqual({ malformed: "rlp: expected List" });
    expect(readTxListAsGeth(Uint8Array.of(0xc0, 0x01))).toEqual({
      malformed: "1 bytes after the list",
    });
  });
});

// A signed typed transaction given as txs.json (geth's field names) is encoded back into the
// envelope its sender is recovered from: ethereumjs' serialization of the same transaction is
// the reference.
describe("a signed typed txs.json entry as the envelope geth signs", () => {
  it("encodes every transaction ethereumjs signs as ethereumjs serializes it", () => {
    fc.assert(
      fc.property(signedEnvelope, fc.boolean(), (envelope, asYParity) => {
        const tx = createTxFromRLP(envelope, { common });
        const { gasLimit, data, v, ...rest } = tx.toJSON() as Record<string, unknown>;
        const json: Record<string, unknown> = { ...rest, gas: gasLimit, input: data };
        json[asYParity ? "yParity" : "v"] = v;
        if (envelope[0] === 4) {
          json.authorizationList = (json.authorizationList as Record<string, unknown>[]).map(
            ({ yParity, ...a }) => (asYParity ? { ...a, yParity } : { ...a, v: yParity }),
          );
        }
        expect(typedJsonEnvelope(json)).toEqual(envelope);
      }),
      { numRuns: 40 },
    );
  });
});

/** A transaction as an element of a txs.rlp list: a legacy one as its list, a typed one as a string. */
function wrapped(tx: Uint8Array): Uint8Array | Uint8Array[] {
  return tx[0]! >= 0xc0 ? (RLP.decode(tx) as Uint8Array[]) : tx;
}

/** An RLP list header for a payload of n bytes. */
function listHeader(n: number): number[] {
  if (n < 56) return [0xc0 + n];
  const size: number[] = [];
  for (let m = n; m > 0; m = Math.floor(m / 256)) size.unshift(m % 256);
  return [0xf7 + size.length, ...size];
}
