/**
 * geth's `AccessEvents` (core/state/access_events.go): the binary-tree locations a transaction
 * touched, and what touching a cold one costs (EIP-4762 witness gas). Keys are the address and
 * the tree index / sub-index, as geth keys them (no tree-key hashing on the hot path).
 *
 * Unlike `@ethereumjs/evm`'s `BinaryTreeAccessWitness`, nothing here is ever rolled back: geth
 * keeps access events of reverted frames (there is no journal entry for them).
 */

/** EIP-4762 witness costs (params/verkle_params.go). Chunk fill is defined but never charged. */
export const WITNESS_BRANCH_READ_COST = 1900n;
export const WITNESS_CHUNK_READ_COST = 200n;
export const WITNESS_BRANCH_WRITE_COST = 3000n;
export const WITNESS_CHUNK_WRITE_COST = 500n;
export const WITNESS_CHUNK_FILL_COST = 6200n;
/** What a warm access costs where geth charges "warm costs" (WarmStorageReadCostEIP2929). */
export const WARM_STORAGE_READ_COST = 100n;

/** Leaf sub-indices of an account header (trie/bintrie). */
export const BASIC_DATA_LEAF = 0;
export const CODE_HASH_LEAF = 1;
const HEADER_STORAGE_OFFSET = 64n;
const CODE_OFFSET = 128n;
const NODE_WIDTH = 256n;
/** MAIN_STORAGE_OFFSET (256^31) divided by the node width. */
const MAIN_STORAGE_TREE_INDEX_OFFSET = 1n << 240n;

const READ = 1;
const WRITE = 2;

/** The consumed and wanted gas of one charge (geth returns both; consumed < wanted = OOG). */
export interface Charge {
  readonly consumed: bigint;
  readonly wanted: bigint;
}

/** Tree index and sub-index of a storage slot (trie/bintrie `StorageIndex`). */
export function storageIndex(slot: bigint): { treeIndex: bigint; subIndex: number } {
  if (slot < CODE_OFFSET - HEADER_STORAGE_OFFSET) {
    return { treeIndex: 0n, subIndex: Number(HEADER_STORAGE_OFFSET + slot) };
  }
  return {
    treeIndex: (slot >> 8n) + MAIN_STORAGE_TREE_INDEX_OFFSET,
    subIndex: Number(slot & 0xffn),
  };
}

export class AccessEvents {
  readonly #branches = new Map<string, number>();
  readonly #chunks = new Map<string, number>();
  /** The code chunk last touched (read) by codeChunksRangeGas: nothing is ever unrecorded. */
  #warmChunkAddress = "";
  #warmChunk = -1;

  /**
   * Whether code chunk `chunk` of `address` is the one codeChunksRangeGas touched last: then
   * touching it again costs nothing (the interpreter's per-instruction check, without a lookup).
   */
  isWarmCodeChunk(address: string, chunk: number): boolean {
    return chunk === this.#warmChunk && address === this.#warmChunkAddress;
  }

  /** Number of leaves touched (for witness reports and tests). */
  get chunkCount(): number {
    return this.#chunks.size;
  }

  /** Whether a leaf was touched, and in write mode if `write`. */
  has(address: string, treeIndex: bigint, subIndex: number, write = false): boolean {
    const mode = this.#chunks.get(`${address}:${treeIndex}:${subIndex}`);
    return mode !== undefined && (!write || (mode & WRITE) !== 0);
  }

  /** Adds every access of `other` (geth `Merge`: a block's witness is the union of its txs'). */
  merge(other: AccessEvents): void {
    for (const [k, v] of other.#branches) this.#branches.set(k, (this.#branches.get(k) ?? 0) | v);
    for (const [k, v] of other.#chunks) this.#chunks.set(k, (this.#chunks.get(k) ?? 0) | v);
  }

  /**
   * geth `touchAddressAndChargeGas`: the cost of the cold parts of one leaf access. Records
   * the access only when `available` covers it (then consumed = wanted).
   */
  touch(
    address: string,
    treeIndex: bigint,
    subIndex: number,
    isWrite: boolean,
    available: bigint,
  ): Charge {
    const branchKey = `${address}:${treeIndex}`;
    const chunkKey = `${branchKey}:${subIndex}`;
    const branch = this.#branches.get(branchKey);
    const chunk = this.#chunks.get(chunkKey);
    const branchRead = branch === undefined;
    const chunkRead = chunk === undefined;
    const branchWrite = isWrite && ((branch ?? 0) & WRITE) === 0;
    const chunkWrite = isWrite && ((chunk ?? 0) & WRITE) === 0;
    let gas = 0n;
    if (branchRead) gas += WITNESS_BRANCH_READ_COST;
    if (chunkRead) gas += WITNESS_CHUNK_READ_COST;
    if (branchWrite) gas += WITNESS_BRANCH_WRITE_COST;
    if (chunkWrite) gas += WITNESS_CHUNK_WRITE_COST;
    if (gas === 0n) return NO_CHARGE;
    if (available < gas) return { consumed: available, wanted: gas };
    if (branchRead || branchWrite)
      this.#branches.set(branchKey, (branch ?? 0) | READ | (branchWrite ? WRITE : 0));
    if (chunkRead || chunkWrite)
      this.#chunks.set(chunkKey, (chunk ?? 0) | READ | (chunkWrite ? WRITE : 0));
    return { consumed: gas, wanted: gas };
  }

  /** geth `BasicDataGas`. */
  basicDataGas(address: string, isWrite: boolean, available: bigint, chargeWarm: boolean): bigint {
    const { wanted } = this.touch(address, 0n, BASIC_DATA_LEAF, isWrite, available);
    if (wanted === 0n && chargeWarm) {
      return available < WARM_STORAGE_READ_COST ? available : WARM_STORAGE_READ_COST;
    }
    return wanted;
  }

  /** geth `CodeHashGas`. */
  codeHashGas(address: string, isWrite: boolean, available: bigint, chargeWarm: boolean): bigint {
    const { wanted } = this.touch(address, 0n, CODE_HASH_LEAF, isWrite, available);
    if (wanted === 0n && chargeWarm) {
      return available < WARM_STORAGE_READ_COST ? available : WARM_STORAGE_READ_COST;
    }
    return wanted;
  }

  /** geth `SlotGas`. */
  slotGas(
    address: string,
    slot: bigint,
    isWrite: boolean,
    available: bigint,
    chargeWarm: boolean,
  ): bigint {
    const { treeIndex, subIndex } = storageIndex(slot);
    const { wanted } = this.touch(address, treeIndex, subIndex, isWrite, available);
    return wanted === 0n && chargeWarm ? WARM_STORAGE_READ_COST : wanted;
  }

  /** geth `AddAccount`: both header leaves. */
  addAccount(address: string, isWrite: boolean, available: bigint): bigint {
    const first = this.touch(address, 0n, BASIC_DATA_LEAF, isWrite, available);
    if (first.consumed < first.wanted) return first.wanted;
    const second = this.touch(address, 0n, CODE_HASH_LEAF, isWrite, available - first.consumed);
    if (second.consumed < second.wanted) return second.wanted + first.consumed;
    return first.consumed + second.wanted;
  }

  /** geth `MessageCallGas`: the callee's BASIC_DATA read, 100 when warm. */
  messageCallGas(destination: string, available: bigint): bigint {
    const { wanted } = this.touch(destination, 0n, BASIC_DATA_LEAF, false, available);
    return wanted === 0n ? WARM_STORAGE_READ_COST : wanted;
  }

  /** geth `ValueTransferGas`: both BASIC_DATA leaves written, 100 when both are warm. */
  valueTransferGas(caller: string, target: string, available: bigint): bigint {
    const first = this.touch(caller, 0n, BASIC_DATA_LEAF, true, available);
    if (first.wanted > available) return first.wanted;
    const second = this.touch(target, 0n, BASIC_DATA_LEAF, true, available - first.wanted);
    const sum = first.wanted + second.wanted;
    return sum === 0n ? WARM_STORAGE_READ_COST : sum;
  }

  /** geth `ContractCreatePreCheckGas`: both header leaves of the new address, read. */
  contractCreatePreCheckGas(address: string, available: bigint): bigint {
    const first = this.touch(address, 0n, BASIC_DATA_LEAF, false, available);
    const second = this.touch(address, 0n, CODE_HASH_LEAF, false, available - first.consumed);
    return first.wanted + second.wanted;
  }

  /** geth `ContractCreateInitGas`: both header leaves of the new address, written. */
  contractCreateInitGas(address: string, available: bigint): Charge {
    const first = this.touch(address, 0n, BASIC_DATA_LEAF, true, available);
    const second = this.touch(address, 0n, CODE_HASH_LEAF, true, available - first.consumed);
    return { consumed: first.consumed + second.consumed, wanted: first.wanted + second.wanted };
  }

  /** geth `AddTxOrigin`: BASIC_DATA written, CODE_HASH read, free (covered by the 21000). */
  addTxOrigin(origin: string): void {
    this.touch(origin, 0n, BASIC_DATA_LEAF, true, UNLIMITED);
    this.touch(origin, 0n, CODE_HASH_LEAF, false, UNLIMITED);
  }

  /** geth `AddTxDestination`: BASIC_DATA (written if value), CODE_HASH (written if absent). */
  addTxDestination(destination: string, sendsValue: boolean, absent: boolean): void {
    this.touch(destination, 0n, BASIC_DATA_LEAF, sendsValue, UNLIMITED);
    this.touch(destination, 0n, CODE_HASH_LEAF, absent, UNLIMITED);
  }

  /** geth `CodeChunksRangeGas`: every 31-byte code chunk of [start, start+size) within the code. */
  codeChunksRangeGas(
    address: string,
    start: bigint,
    size: bigint,
    codeLength: bigint,
    isWrite: boolean,
    available: bigint,
  ): Charge {
    if ((codeLength === 0n && size === 0n) || start > codeLength) return NO_CHARGE;
    let end = start + size;
    if (end > codeLength) end = codeLength;
    if (end > 0n) end -= 1n;
    let charged = 0n;
    for (let chunk = start / 31n; chunk <= end / 31n; chunk++) {
      const position = chunk + CODE_OFFSET;
      const { consumed, wanted } = this.touch(
        address,
        position / NODE_WIDTH,
        Number(position % NODE_WIDTH),
        isWrite,
        available,
      );
      if (wanted > consumed) return { consumed: charged + consumed, wanted: charged + wanted };
      if (!isWrite) {
        this.#warmChunkAddress = address;
        this.#warmChunk = Number(chunk);
      }
      charged += consumed;
      available -= consumed;
    }
    return charged === 0n ? NO_CHARGE : { consumed: charged, wanted: charged };
  }
}

const UNLIMITED = (1n << 64n) - 1n;
/** A charge of nothing (shared: charges are read, never changed). */
const NO_CHARGE: Charge = { consumed: 0n, wanted: 0n };
