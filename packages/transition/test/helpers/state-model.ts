import { type Account, type BinaryTree, codeHash, type GenesisAlloc } from "@bintrie/core";
import { hex, quantity, word } from "./bytes.js";

/** The intended semantics as plain maps: what every read of a transition state must return. */
export interface ModelAccount {
  readonly nonce: bigint;
  readonly balance: bigint;
  readonly code: Uint8Array;
}

export class StateModel {
  /** address hex → account (absent = no account). */
  readonly accounts = new Map<string, ModelAccount>();
  /** address hex → slot (bigint) → non-zero value. Storage can exist without an account. */
  readonly storage = new Map<string, Map<bigint, bigint>>();

  static fromAlloc(alloc: GenesisAlloc): StateModel {
    const m = new StateModel();
    for (const [address, a] of Object.entries(alloc)) {
      const key = address.replace(/^0x/, "").toLowerCase();
      m.accounts.set(key, {
        nonce: BigInt(a.nonce ?? "0x0"),
        balance: BigInt(a.balance),
        code: Uint8Array.from(Buffer.from((a.code ?? "0x").slice(2), "hex")),
      });
      for (const [slot, value] of Object.entries(a.storage ?? {})) {
        if (value !== null && BigInt(value) !== 0n) m.setStorage(key, BigInt(slot), BigInt(value));
      }
    }
    return m;
  }

  account(address: string): Account | undefined {
    const a = this.accounts.get(address);
    if (a === undefined) return undefined;
    return {
      nonce: a.nonce,
      balance: a.balance,
      codeHash: codeHash(a.code),
      codeSize: a.code.length,
    };
  }

  storageValue(address: string, slot: bigint): bigint {
    return this.storage.get(address)?.get(slot) ?? 0n;
  }

  code(address: string): Uint8Array {
    return this.accounts.get(address)?.code ?? new Uint8Array(0);
  }

  setStorage(address: string, slot: bigint, value: bigint): void {
    let slots = this.storage.get(address);
    if (slots === undefined) {
      slots = new Map();
      this.storage.set(address, slots);
    }
    if (value === 0n) slots.delete(slot);
    else slots.set(slot, value);
  }

  deleteAccount(address: string): void {
    this.accounts.delete(address);
    this.storage.delete(address);
  }

  /** The model as a geth-style alloc (accounts only). */
  toAlloc(): GenesisAlloc {
    const alloc: Record<
      string,
      { nonce: string; balance: string; code: string; storage: Record<string, string> }
    > = {};
    for (const [address, a] of this.accounts) {
      const storage: Record<string, string> = {};
      for (const [slot, value] of this.storage.get(address) ?? [])
        storage[`0x${hex(word(slot))}`] = quantity(value);
      alloc[`0x${address}`] = {
        nonce: quantity(a.nonce),
        balance: quantity(a.balance),
        code: `0x${hex(a.code)}`,
        storage,
      };
    }
    return alloc;
  }

  /**
   * A fresh build of this state (geth's genesis path: header, code chunks, non-zero slots),
   * including storage of addresses that have no account.
   */
  buildInto(tree: BinaryTree): void {
    for (const [address, a] of this.accounts) {
      const addr = Uint8Array.from(Buffer.from(address, "hex"));
      tree.putAccount(addr, this.account(address)!);
      if (a.code.length > 0) tree.putCode(addr, a.code);
    }
    for (const [address, slots] of this.storage) {
      const addr = Uint8Array.from(Buffer.from(address, "hex"));
      for (const [slot, value] of slots) tree.putStorage(addr, word(slot), word(value));
    }
  }
}
