import { RLP } from "@ethereumjs/rlp";
import { INVALID_SIGNATURE_VALUES, typedSignatureValid } from "./geth-signature-values.js";

/**
 * Whether geth decodes a transaction (a typed envelope, type ‖ RLP payload, or a legacy list),
 * and if not, geth's words for the first thing it refuses: geth's t8n then rejects the
 * transaction at its index of a txs.rlp list, geth's import refuses the block. ethereumjs is
 * laxer (it takes an integer with leading zero bytes, e.g. a chain id 0x0001), stricter (a value
 * over 256 bits, which geth decodes and refuses later in its own words) and words its refusals
 * its own way. The rules are those of geth's RLP decoder (go-ethereum `rlp`, decoding into
 * `types.LegacyTx`, `AccessListTx`, `DynamicFeeTx`, `BlobTx` and `SetCodeTx`): one value filling
 * the payload, fields in order, integers without leading zeros, a single byte below 0x80 as
 * itself, sizes in their shortest form, each Go type's limits; then, for a typed payload geth
 * takes, its sender check (`invalid transaction v, r, s values`). A blob transaction in its
 * network form (with blobs) is left to the caller.
 */

/** geth's RLP errors that name a Go type and the field path to it. */
class TypedFault {
  readonly path: string[] = [];
  constructor(
    readonly reason: string,
    readonly goType: string,
  ) {}
}

/** geth's RLP errors that stand alone (its sentinel errors), and the end of a list. */
class RawFault {
  constructor(readonly text: string) {}
}

const EOL = new RawFault("rlp: end of list");
const CANON_SIZE = new RawFault("rlp: non-canonical size information");
const CANON_INT = new RawFault("rlp: non-canonical integer format");
const EXPECTED_STRING = new RawFault("rlp: expected String or Byte");
const EXPECTED_LIST = new RawFault("rlp: expected List");
const ELEMENT_TOO_LARGE = new RawFault("rlp: element is larger than containing list");
const VALUE_TOO_LARGE = new RawFault("rlp: value size exceeds available input length");
const UINT_OVERFLOW = new RawFault("rlp: uint overflow");
const NOT_AT_END = new RawFault("rlp: call of ListEnd not positioned at EOL");
const UINT256_TOO_LARGE = new RawFault("rlp: value too large for uint256");
const UNEXPECTED_EOF = new RawFault("unexpected EOF");
/** A header cut short at the top level (geth's stream then reports the end of its input). */
const TOP_LEVEL_EOF = new RawFault("EOF");
const MORE_THAN_ONE_VALUE = new RawFault("rlp: input contains more than one value");
/** geth's error for an envelope of one byte or none (errShortTypedTx). */
const SHORT_TYPED_TX = "typed transaction too short";

/** The sentinel errors geth's decoders restate with the Go type they were decoding. */
const TYPED_REASONS = new Map<RawFault, string>([
  [CANON_INT, "non-canonical integer (leading zero bytes)"],
  [CANON_SIZE, "non-canonical size information"],
  [EXPECTED_LIST, "expected input list"],
  [EXPECTED_STRING, "expected input string or byte"],
  [UINT_OVERFLOW, "input string too long"],
  [NOT_AT_END, "input list has too many elements"],
]);

type Fault = TypedFault | RawFault;

function typed(fault: Fault, goType: string): Fault {
  const reason = fault instanceof RawFault ? TYPED_REASONS.get(fault) : undefined;
  return reason === undefined ? fault : new TypedFault(reason, goType);
}

function within(fault: Fault, step: string): Fault {
  if (fault instanceof TypedFault) fault.path.push(step);
  return fault;
}

/** A big-endian unsigned integer. */
function bigIntOf(raw: Uint8Array): bigint {
  let value = 0n;
  for (const b of raw) value = (value << 8n) | BigInt(b);
  return value;
}

const BYTE = 0;
const STRING = 1;
const LIST = 2;

/** A limited reader of one RLP payload with geth's stream rules (kind, size, list limits). */
class PayloadReader {
  #at = 0;
  readonly #lists: number[] = [];
  /** The next value's header, read and not yet consumed (-1: none), and where it starts. */
  #kind = -1;
  #size = 0;
  #byte = 0;
  #kindFault: RawFault | undefined = undefined;
  #headerAt = 0;

  constructor(readonly bytes: Uint8Array) {}

  get remaining(): number {
    return this.bytes.length - this.#at;
  }

  /** Bytes read so far. */
  get offset(): number {
    return this.#at;
  }

  /** Where the header kind() read last starts. */
  get headerAt(): number {
    return this.#headerAt;
  }

  /** Whether the innermost open list has bytes left (geth's Stream.MoreDataInList). */
  moreInList(): boolean {
    const lists = this.#lists;
    return lists.length > 0 && lists[lists.length - 1]! > 0;
  }

  /** The stream's position: equal before and after a read that consumed nothing. */
  state(): string {
    return `${this.#at}/${this.#kind}/${this.#kindFault?.text}/${this.#lists.join(",")}`;
  }

  /**
   * The next value's kind and size, its header consumed (geth's Stream.Kind). A header that fails
   * (cut short, a size not in its shortest form, too large for its list) fails again on every
   * call until a read moves on, as geth caches the error with the kind.
   */
  kind(): [number, number] {
    if (this.#kind >= 0) {
      if (this.#kindFault !== undefined) throw this.#kindFault;
      return [this.#kind, this.#size];
    }
    const inList = this.#lists.length > 0;
    const limit = inList ? this.#lists[this.#lists.length - 1]! : 0;
    if (inList && limit === 0) throw EOL;
    try {
      this.#readHeader();
      // Against the list's room before the header was read (as geth's Kind checks it).
      if (inList && this.#size > limit) throw ELEMENT_TOO_LARGE;
      if (this.#size > this.remaining) throw VALUE_TOO_LARGE;
    } catch (fault) {
      if (this.#kind < 0) this.#kind = BYTE;
      this.#kindFault = fault as RawFault;
      throw fault;
    }
    return [this.#kind, this.#size];
  }

  #readHeader(): void {
    this.#headerAt = this.#at;
    const first = this.#readHeaderByte();
    // Kind last: reading a long form's size re-arms it.
    let kind: number;
    let size = 0;
    this.#byte = 0;
    if (first < 0x80) {
      kind = BYTE;
      this.#byte = first;
    } else if (first < 0xb8) {
      kind = STRING;
      size = first - 0x80;
    } else if (first < 0xc0) {
      kind = STRING;
      size = this.#readSize(first - 0xb7);
    } else if (first < 0xf8) {
      kind = LIST;
      size = first - 0xc0;
    } else {
      kind = LIST;
      size = this.#readSize(first - 0xf7);
    }
    this.#kind = kind;
    this.#size = size;
  }

  /** A long form's size of `bytes` bytes: at least 56, without a leading zero byte. */
  #readSize(bytes: number): number {
    const raw = this.#read(bytes);
    if (bytes > 1 && raw[0] === 0) throw CANON_SIZE;
    let size = 0;
    for (const b of raw) size = size * 256 + b;
    if (size < 56) throw CANON_SIZE;
    return size;
  }

  #readHeaderByte(): number {
    this.#willRead(1, true);
    return this.bytes[this.#at++]!;
  }

  /** The next n bytes (a value's content: the next kind() reads a new header). */
  #read(n: number): Uint8Array {
    this.#willRead(n, false);
    const out = this.bytes.subarray(this.#at, this.#at + n);
    this.#at += n;
    return out;
  }

  /** The limits a read of n bytes must keep: the enclosing list's, then the payload's. */
  #willRead(n: number, header: boolean): void {
    this.#kind = -1;
    this.#kindFault = undefined;
    const lists = this.#lists;
    if (lists.length > 0) {
      const limit = lists[lists.length - 1]!;
      if (n > limit) throw ELEMENT_TOO_LARGE;
      lists[lists.length - 1] = limit - n;
    }
    if (n > this.remaining) throw header && lists.length === 0 ? TOP_LEVEL_EOF : VALUE_TOO_LARGE;
  }

  /** Consumes a value read by kind() that has no content to read. */
  #rearm(): void {
    this.#kind = -1;
    this.#kindFault = undefined;
  }

  /** Opens a list; its size. */
  list(): number {
    const [kind, size] = this.kind();
    if (kind !== LIST) throw EXPECTED_LIST;
    const lists = this.#lists;
    if (lists.length > 0) lists[lists.length - 1] = lists[lists.length - 1]! - size;
    lists.push(size);
    this.#kind = -1;
    return size;
  }

  listEnd(): void {
    if (this.#lists[this.#lists.length - 1]! > 0) throw NOT_AT_END;
    this.#lists.pop();
    this.#kind = -1;
  }

  /** An unsigned integer of at most `bits` bits (geth's Stream.uint). */
  uint(bits: number): bigint {
    const [kind, size] = this.kind();
    if (kind === BYTE) {
      if (this.#byte === 0) throw CANON_INT;
      this.#rearm();
      return BigInt(this.#byte);
    }
    if (kind === LIST) throw EXPECTED_STRING;
    if (size > bits / 8) throw UINT_OVERFLOW;
    const raw = this.#read(size);
    if (size > 1 && raw[0] === 0) throw CANON_INT;
    if (size === 1 && raw[0]! < 128) throw CANON_SIZE;
    return bigIntOf(raw);
  }

  /** A big integer, at most `maxBytes` long when given (geth's decodeBigInt, ReadUint256). */
  bigInt(maxBytes: number | undefined): bigint {
    const [kind, size] = this.kind();
    let raw: Uint8Array;
    if (kind === LIST) throw EXPECTED_STRING;
    if (kind === BYTE) {
      raw = Uint8Array.of(this.#byte);
      this.#rearm();
    } else if (size === 0) {
      raw = new Uint8Array(0);
      this.#rearm();
    } else if (maxBytes !== undefined && size > maxBytes) {
      throw UINT256_TOO_LARGE;
    } else {
      raw = this.#read(size);
      if (size === 1 && raw[0]! < 128) throw CANON_SIZE;
    }
    if (raw.length > 0 && raw[0] === 0) throw CANON_INT;
    return bigIntOf(raw);
  }

  /** A byte string (geth's Stream.Bytes). */
  bytesValue(): Uint8Array {
    const [kind, size] = this.kind();
    if (kind === BYTE) {
      this.#rearm();
      return Uint8Array.of(this.#byte);
    }
    if (kind === LIST) throw EXPECTED_STRING;
    const raw = this.#read(size);
    if (size === 1 && raw[0]! < 128) throw CANON_SIZE;
    return raw;
  }

  /** A fixed-size byte array of `length` bytes, named `goType` in errors (geth's decodeByteArray). */
  byteArray(length: number, goType: string): void {
    const [kind, size] = this.kind();
    if (kind === BYTE) throw new TypedFault("input string too short", goType);
    if (kind === LIST) throw typed(EXPECTED_STRING, goType);
    if (size > length) throw new TypedFault("input string too long", goType);
    if (size < length) throw new TypedFault("input string too short", goType);
    const raw = this.#read(size);
    if (size === 1 && raw[0]! < 128) throw typed(CANON_SIZE, goType);
  }

  /** An empty string (nil) or an address (geth's `rlp:"nil"` pointer decoder). */
  optionalAddress(): void {
    let kind: number;
    let size: number;
    try {
      [kind, size] = this.kind();
    } catch (fault) {
      throw typed(fault as Fault, "*common.Address");
    }
    if (kind !== BYTE && size === 0) {
      if (kind !== STRING) {
        throw new TypedFault(
          "wrong kind of empty value (got List, want String)",
          "*common.Address",
        );
      }
      this.#rearm();
      return;
    }
    this.byteArray(20, "common.Address");
  }
}

/** A field decoder: reads its value, throws geth's fault. */
type FieldDecoder = (reader: PayloadReader) => unknown;

/** A read whose sentinel errors geth restates with the Go type it was decoding (`typed`). */
function asType(goType: string, read: FieldDecoder): FieldDecoder {
  return (r) => {
    try {
      return read(r);
    } catch (fault) {
      throw typed(fault as Fault, goType);
    }
  };
}

const BIG = asType("*big.Int", (r) => r.bigInt(undefined));
const U256 = asType("*uint256.Int", (r) => r.bigInt(32));
const U256_VALUE = asType("uint256.Int", (r) => r.bigInt(32));
const UINT64 = asType("uint64", (r) => r.uint(64));
const UINT8 = asType("uint8", (r) => r.uint(8));
const DATA = asType("[]uint8", (r) => r.bytesValue());
const ADDRESS: FieldDecoder = (r) => r.byteArray(20, "common.Address");
const HASH: FieldDecoder = (r) => r.byteArray(32, "common.Hash");
const OPTIONAL_ADDRESS: FieldDecoder = (r) => r.optionalAddress();

/** A struct: a list of its fields in order (geth's struct decoder). */
function struct(goType: string, fields: readonly [string, FieldDecoder][]): FieldDecoder {
  const open = asType(goType, (r) => r.list());
  const close = asType(goType, (r) => r.listEnd());
  return (r) => {
    open(r);
    const values: unknown[] = [];
    for (const [name, decode] of fields) {
      try {
        values.push(decode(r));
      } catch (fault) {
        if (fault === EOL) throw new TypedFault("too few elements", goType);
        throw within(fault as Fault, `.${name}`);
      }
    }
    close(r);
    return values;
  };
}

/** A slice: a list of elements until its end (geth's slice decoder). */
function slice(goType: string, element: FieldDecoder): FieldDecoder {
  const open = asType(goType, (r) => r.list());
  return (r) => {
    open(r);
    for (let i = 0; ; i++) {
      try {
        element(r);
      } catch (fault) {
        if (fault === EOL) break;
        throw within(fault as Fault, `[${i}]`);
      }
    }
    r.listEnd();
    return undefined;
  };
}

const ACCESS_LIST = slice(
  "types.AccessList",
  struct("types.AccessTuple", [
    ["Address", ADDRESS],
    ["StorageKeys", slice("[]common.Hash", HASH)],
  ]),
);
const AUTH_LIST = slice(
  "[]types.SetCodeAuthorization",
  struct("types.SetCodeAuthorization", [
    ["ChainID", U256_VALUE],
    ["Address", ADDRESS],
    ["Nonce", UINT64],
    ["V", UINT8],
    ["R", U256_VALUE],
    ["S", U256_VALUE],
  ]),
);

/** A typed transaction struct of geth's, and where its gas limit and V, R, S are. */
interface TxStruct {
  readonly name: string;
  readonly decode: FieldDecoder;
  /** Index of V (R and S follow). */
  readonly signature: number;
  /** Index of the gas limit (the fee fields are just before it). */
  readonly gas: number;
  /** The EIP that brings the type (a fork without it has no such transactions). */
  readonly eip: number;
}

/**
 * geth's typed transaction structs, which share their layout: chain id, nonce, the fee fields,
 * gas, to, value, data, access list, the type's own fields, V, R, S; `integer` is the Go type of
 * the big numbers (`*big.Int` for types 1 and 2, `*uint256.Int` after).
 */
function txStruct(
  name: string,
  eip: number,
  integer: FieldDecoder,
  fees: readonly string[],
  to: FieldDecoder,
  own: readonly [string, FieldDecoder][],
): TxStruct {
  const fields: [string, FieldDecoder][] = [
    ["ChainID", integer],
    ["Nonce", UINT64],
    ...fees.map((fee): [string, FieldDecoder] => [fee, integer]),
    ["Gas", UINT64],
    ["To", to],
    ["Value", integer],
    ["Data", DATA],
    ["AccessList", ACCESS_LIST],
    ...own,
    ["V", integer],
    ["R", integer],
    ["S", integer],
  ];
  const signature = fields.length - 3;
  return { name, decode: struct(name, fields), signature, gas: 2 + fees.length, eip };
}

const DYNAMIC_FEES = ["GasTipCap", "GasFeeCap"];

/** Per transaction type (an envelope's first byte). */
const TYPES = new Map<number, TxStruct>([
  [1, txStruct("types.AccessListTx", 2930, BIG, ["GasPrice"], OPTIONAL_ADDRESS, [])],
  [2, txStruct("types.DynamicFeeTx", 1559, BIG, DYNAMIC_FEES, OPTIONAL_ADDRESS, [])],
  [
    3,
    txStruct("types.BlobTx", 4844, U256, DYNAMIC_FEES, ADDRESS, [
      ["BlobFeeCap", U256],
      ["BlobHashes", slice("[]common.Hash", HASH)],
    ]),
  ],
  [4, txStruct("types.SetCodeTx", 7702, U256, DYNAMIC_FEES, ADDRESS, [["AuthList", AUTH_LIST]])],
]);

/**
 * What geth makes of a typed envelope: its decoding error, or its chain id and whether the
 * signature values it decoded pass its sender check (`invalid transaction v, r, s values`
 * otherwise, once the type and the chain id are found right); undefined for a blob transaction
 * in its network form.
 */
export function decodeTypedTxAsGeth(
  envelope: Uint8Array,
):
  | { readonly error: string }
  | { readonly chainId: bigint; readonly validSignature: boolean }
  | undefined {
  if (envelope.length <= 1) return { error: SHORT_TYPED_TX };
  const type = TYPES.get(envelope[0]!);
  if (type === undefined) return { error: "transaction type not supported" };
  const payload = envelope.subarray(1);
  if (envelope[0] === 3) {
    const network = blobNetworkForm(payload);
    if (typeof network === "string") return { error: network };
    if (network) return undefined;
  }
  const reader = new PayloadReader(payload);
  let fields: unknown[];
  try {
    fields = type.decode(reader) as unknown[];
    if (reader.remaining > 0) throw MORE_THAN_ONE_VALUE;
  } catch (fault) {
    return { error: describe(fault, type.name) };
  }
  const [v, r, s] = fields.slice(type.signature, type.signature + 3) as bigint[];
  return { chainId: fields[0] as bigint, validSignature: typedSignatureValid(v!, r!, s!) };
}

/** geth's LegacyTx, whose integers are all `*big.Int` but the nonce and gas. */
const LEGACY = struct("types.LegacyTx", [
  ["Nonce", UINT64],
  ["GasPrice", BIG],
  ["Gas", UINT64],
  ["To", OPTIONAL_ADDRESS],
  ["Value", BIG],
  ["Data", DATA],
  ["V", BIG],
  ["R", BIG],
  ["S", BIG],
]);

/** The numbers of a legacy transaction geth decodes, at any size its Go types allow. */
export interface LegacyTxNumbers {
  readonly nonce: bigint;
  readonly gasPrice: bigint;
  readonly gas: bigint;
  readonly value: bigint;
  readonly v: bigint;
  readonly r: bigint;
  readonly s: bigint;
}

function legacyNumbers(fields: unknown[]): LegacyTxNumbers {
  const [nonce, gasPrice, gas, , value, , v, r, s] = fields as bigint[];
  return { nonce: nonce!, gasPrice: gasPrice!, gas: gas!, value: value!, v: v!, r: r!, s: s! };
}

/** A transaction of a txs.rlp list as geth's t8n reads it: its decoding error, or its bytes. */
export type GethListItem =
  | { readonly error: string }
  | { readonly legacy: Uint8Array; readonly numbers: LegacyTxNumbers }
  | { readonly envelope: Uint8Array };

/**
 * A txs.rlp list as geth's t8n reads it (t8ntool's rlpTxIterator: one RLP stream, a transaction
 * decoded while the innermost open list has bytes left). A legacy transaction that fails to
 * decode leaves the stream inside its list: geth then reads the list's remaining values as
 * transactions (a string as a typed envelope, a list as a legacy transaction) and stops at its
 * end, never reading the outer list's later transactions. `stuck` is the first index from which
 * geth reads the same value forever (a read that moves nothing: a one-byte value it cannot take
 * as a transaction, or a header it cannot read, whose kind and error its stream keeps) with more
 * bytes after it in its list. `malformed` when `body` is not one RLP list filling it: geth reads
 * no transaction of what is not a list and ignores what follows one; both are refused here (a
 * truncated or padded file).
 */
export function readTxListAsGeth(
  body: Uint8Array,
): { readonly items: GethListItem[]; readonly stuck?: number } | { readonly malformed: string } {
  const reader = new PayloadReader(body);
  try {
    const size = reader.list();
    if (size < reader.remaining)
      return { malformed: `${reader.remaining - size} bytes after the list` };
  } catch (fault) {
    if (!(fault instanceof RawFault)) throw fault;
    return { malformed: fault.text };
  }
  const items: GethListItem[] = [];
  while (reader.moreInList()) {
    const before = reader.state();
    items.push(readTransaction(reader, body));
    if (reader.state() === before) return { items, stuck: items.length - 1 };
  }
  return { items };
}

/** One transaction at the reader's position (geth's Transaction.DecodeRLP). */
function readTransaction(reader: PayloadReader, body: Uint8Array): GethListItem {
  try {
    const [kind] = reader.kind();
    if (kind === BYTE) return { error: SHORT_TYPED_TX };
    if (kind === STRING) return { envelope: reader.bytesValue() };
    const start = reader.headerAt;
    const numbers = legacyNumbers(LEGACY(reader) as unknown[]);
    return { legacy: body.subarray(start, reader.offset), numbers };
  } catch (fault) {
    return { error: describe(fault, "types.LegacyTx") };
  }
}

/**
 * A blob payload's outer form, as geth tells it apart before decoding: true for the network
 * form (its first element a list), false for the canonical one, or geth's error.
 */
function blobNetworkForm(payload: Uint8Array): boolean | string {
  const outer = splitHeader(payload);
  if (typeof outer === "string") return outer;
  if (outer.kind !== LIST) return EXPECTED_LIST.text;
  const first = splitHeader(payload.subarray(outer.start, outer.start + outer.size));
  if (typeof first === "string") return first;
  return first.kind === LIST;
}

/** geth's rlp.Split: the first value's kind, content start and size, or its error. */
function splitHeader(bytes: Uint8Array): { kind: number; start: number; size: number } | string {
  if (bytes.length === 0) return UNEXPECTED_EOF.text;
  const first = bytes[0]!;
  if (first < 0x80) return { kind: BYTE, start: 0, size: 1 };
  const kind = first < 0xc0 ? STRING : LIST;
  let header = 1;
  let size: number;
  if (first < 0xb8 || (first >= 0xc0 && first < 0xf8)) {
    size = first - (kind === STRING ? 0x80 : 0xc0);
    // A single byte below 0x80 is its own encoding.
    if (kind === STRING && size === 1 && bytes.length > 1 && bytes[1]! < 128) {
      return CANON_SIZE.text;
    }
  } else {
    const lengthBytes = first - (kind === STRING ? 0xb7 : 0xf7);
    if (lengthBytes > bytes.length - 1) return UNEXPECTED_EOF.text;
    size = 0;
    for (let i = 1; i <= lengthBytes; i++) size = size * 256 + bytes[i]!;
    if (size < 56 || bytes[1] === 0) return CANON_SIZE.text;
    header += lengthBytes;
  }
  if (size > bytes.length - header) return VALUE_TOO_LARGE.text;
  return { kind, start: header, size };
}

/** geth's message for a fault: a typed one with its path (and the types it was decoded into). */
function describe(fault: unknown, txType: string): string {
  if (fault instanceof RawFault) return fault.text;
  if (!(fault instanceof TypedFault)) throw fault;
  const context =
    fault.path.length === 0
      ? ""
      : `, decoding into (types.Transaction)(${txType})${fault.path.reverse().join("")}`;
  return `rlp: ${fault.reason} for ${fault.goType}${context}`;
}

/**
 * A typed transaction's layout by its type byte: where its gas limit and V, R, S sit in its
 * payload list, and the EIP that brings the type.
 */
export function typedTxLayout(
  type: number,
): { readonly signature: number; readonly gas: number; readonly eip: number } | undefined {
  return TYPES.get(type);
}

/**
 * A block's transactions as geth's import decodes them: the first typed one geth refuses, by
 * index, with its reason (its decoding error, or signature values out of range), or undefined.
 * `blockRlp` is a block that decodes as RLP (header, transactions, …).
 */
export function gethBlockTxFault(blockRlp: Uint8Array): string | undefined {
  const block = RLP.decode(blockRlp) as unknown as unknown[];
  const txs = Array.isArray(block) && Array.isArray(block[1]) ? (block[1] as unknown[]) : [];
  for (let k = 0; k < txs.length; k++) {
    const item = txs[k];
    if (!(item instanceof Uint8Array)) continue;
    const geth = decodeTypedTxAsGeth(item);
    if (geth === undefined) continue;
    if ("error" in geth) return `transaction ${k}: ${geth.error}`;
    if (!geth.validSignature) return `transaction ${k}: ${INVALID_SIGNATURE_VALUES}`;
  }
  return undefined;
}
