import type { BinaryTree } from "@bintrie/core";
import { EMPTY_MPT_ROOT } from "@bintrie/core";
import { bytesToHex, equalBytes } from "@bintrie/core/bytes";
import { concatBytes } from "@noble/hashes/utils.js";
import { AccountFeed } from "./account-feed.js";
import { headerAndCodeLeaves } from "./account-leaves.js";
import { increment, ZERO32 } from "./bytes.js";
import type { ConversionCursor } from "./conversion-cursor.js";
import { type BaseAccount, decodeAccount, decodeStorageValue, type MptBase } from "./mpt-base.js";
import type { MptLeaf } from "./mpt-walk.js";
import { lookupPreimage } from "./preimage-lookup.js";
import type { PreimageSource } from "./preimage-source.js";
import { MARK_HAS_TOMBSTONES, MARK_WIPED, type SideTables } from "./side-tables.js";
import { TransitionError } from "./transition-error.js";
import type { ConversionCounters } from "./transition-record.js";

/** Storage leaves handled per overlay load round. */
const SLOT_BATCH = 512;
/** Accounts read ahead (their code and storage-trie tops fetched in one batch). */
const LOOKAHEAD = 64;

interface CurrentAccount {
  readonly hashedKey: Uint8Array;
  readonly address: Uint8Array;
  readonly account: BaseAccount;
  /** Wiped in the overlay: none of its base leaves may appear. */
  wiped: boolean;
  /** Some of its keys may have leaf tombstones ('remove' mode): look each key up. */
  tombstoned: boolean;
  storage: AsyncGenerator<MptLeaf> | undefined;
}

/** What the converter works on; owned by TransitionState. */
export interface ConversionTarget {
  readonly overlay: BinaryTree;
  readonly base: MptBase;
  readonly side: SideTables;
  readonly preimages: PreimageSource;
}

/**
 * Moves base leaves into the overlay in hashed-key order (accounts, and within an account its
 * header, code, then storage slots). The one rule: a base leaf is written only where the overlay
 * has no leaf for that key, so everything the overlay wrote wins. Base leaves of wiped accounts
 * and leaf-tombstoned keys are not copied: in 'zero' mode they become zero leaves (what geth's
 * delete would have left), in 'remove' mode nothing is written. That makes the final tree depend
 * only on the operations applied, not on when conversion steps ran between them.
 */
export class Converter {
  readonly #target: ConversionTarget;
  #cursor: ConversionCursor;
  #counters: ConversionCounters;
  #feed: AccountFeed | undefined;
  #current: CurrentAccount | undefined;
  #started = false;

  constructor(target: ConversionTarget, cursor: ConversionCursor, counters: ConversionCounters) {
    this.#target = target;
    this.#cursor = cursor;
    this.#counters = counters;
  }

  get cursor(): ConversionCursor {
    return this.#cursor;
  }

  get counters(): ConversionCounters {
    return this.#counters;
  }

  /**
   * Converts about `maxLeaves` base leaves (an account's header and code are never split; its
   * storage may be). Returns the number of base leaves handled; 0 once everything is converted.
   */
  async step(maxLeaves: number): Promise<number> {
    if (!Number.isInteger(maxLeaves) || maxLeaves < 1) {
      throw new TransitionError(
        "INVALID_ARGUMENT",
        `maxLeaves must be a positive integer, got ${maxLeaves}`,
      );
    }
    if (this.#cursor.phase === "done") return 0;
    if (!this.#started) await this.#resume();
    let handled = 0;
    while (handled < maxLeaves && !this.#done()) {
      if (this.#current === undefined) handled += await this.#nextAccount();
      else handled += await this.#storageBatch(Math.min(SLOT_BATCH, maxLeaves - handled));
    }
    return handled;
  }

  #done(): boolean {
    return this.#cursor.phase === "done";
  }

  /** Re-opens the base walks at the cursor (after open from a stored record). */
  async #resume(): Promise<void> {
    this.#started = true;
    const c = this.#cursor;
    const base = this.#target.base;
    let walk: AsyncGenerator<MptLeaf>;
    if (c.phase === "pending") walk = base.accounts();
    else if (c.phase !== "converting") return;
    else if (c.storageDone) {
      const next = increment(c.account);
      walk = next === undefined ? emptyWalk() : base.accounts(next);
    } else {
      walk = base.accounts(c.account);
      const first = await walk.next();
      if (first.done === true || !equalBytes(first.value.hashedKey, c.account)) {
        throw new TransitionError(
          "CORRUPT_STATE",
          `conversion cursor is at account ${bytesToHex(c.account)}, which the base does not hold`,
        );
      }
      const current = await this.#describe(first.value);
      const from = c.lastSlot === undefined ? undefined : increment(c.lastSlot);
      current.storage =
        c.lastSlot !== undefined && from === undefined
          ? emptyWalk()
          : base.storage(current.account.storageRoot, from);
      this.#current = current;
    }
    this.#feed = new AccountFeed(walk, base, LOOKAHEAD);
  }

  async #nextAccount(): Promise<number> {
    const leaf = await this.#feed!.take();
    if (leaf === undefined) {
      // The clean-up first: if it fails, the cursor still says 'converting' and a retry (a new
      // converter, from the cursor) finds no account left and runs the clean-up again.
      await this.#target.side.dropConversionMarks();
      this.#cursor = { phase: "done" };
      this.#feed = undefined;
      return 0;
    }
    const current = await this.#describe(leaf);
    const handled = await this.#convertHeaderAndCode(current);
    const noStorage = equalBytes(current.account.storageRoot, EMPTY_MPT_ROOT);
    this.#cursor = {
      phase: "converting",
      account: current.hashedKey,
      lastSlot: undefined,
      storageDone: noStorage,
    };
    this.#counters = { ...this.#counters, accounts: this.#counters.accounts + 1 };
    if (!noStorage) {
      // So that deleting it after conversion knows, without the base, to clear copied slots.
      if (!current.wiped) this.#target.side.noteBaseStorage(current.address);
      current.storage = this.#target.base.storage(current.account.storageRoot);
      this.#current = current;
    }
    return handled;
  }

  async #describe(leaf: MptLeaf): Promise<CurrentAccount> {
    const address = await lookupPreimage(this.#target.preimages, leaf.hashedKey, "account");
    const current: CurrentAccount = {
      hashedKey: leaf.hashedKey,
      address,
      account: decodeAccount(leaf.value),
      wiped: false,
      tombstoned: false,
      storage: undefined,
    };
    await this.#refreshHiding(current);
    return current;
  }

  /**
   * Re-reads what hides the account's base leaves. Called before every batch: a delete can land
   * between two steps while an account's storage is half converted.
   */
  async #refreshHiding(current: CurrentAccount): Promise<void> {
    const side = this.#target.side;
    const mark = await side.accountMark(current.address);
    current.wiped = (mark & MARK_WIPED) !== 0;
    current.tombstoned = (mark & MARK_HAS_TOMBSTONES) !== 0;
  }

  async #convertHeaderAndCode(current: CurrentAccount): Promise<number> {
    const { overlay, base } = this.#target;
    const code = await base.getCode(current.account.codeHash);
    const groups = headerAndCodeLeaves(overlay.keys, current.address, current.account, code);
    await overlay.load(groups.map((g) => g.stem));
    const hidden = await this.#tombstoned(
      current,
      groups.flatMap((g) =>
        Array.from(g.subindices, (sub) => concatBytes(g.stem, Uint8Array.of(sub))),
      ),
    );
    let at = 0;
    let written = 0;
    let kept = 0;
    let leaves = 0;
    for (const group of groups) {
      const present = overlay.getStem(group.stem);
      const values: (Uint8Array | undefined)[] = [];
      let any = false;
      for (let i = 0; i < group.subindices.length; i++) {
        const sub = group.subindices[i]!;
        leaves++;
        const isHidden = hidden[at++] === true;
        if (present?.[sub] !== undefined) {
          kept++;
          continue;
        }
        const value = this.#baseValue(current, isHidden, group.values[i]!);
        if (value === undefined) {
          kept++;
          continue;
        }
        values[sub] = value;
        any = true;
        written++;
      }
      if (any) overlay.putStem(group.stem, values);
    }
    this.#counters = {
      ...this.#counters,
      codeChunks: this.#counters.codeChunks + (leaves - 2),
      leavesWritten: this.#counters.leavesWritten + written,
      leavesKept: this.#counters.leavesKept + kept,
    };
    return leaves;
  }

  async #storageBatch(limit: number): Promise<number> {
    const current = this.#current!;
    const { overlay, preimages } = this.#target;
    const leaves: MptLeaf[] = [];
    let exhausted = false;
    while (leaves.length < limit) {
      const next = await current.storage!.next();
      if (next.done === true) {
        exhausted = true;
        break;
      }
      leaves.push(next.value);
    }
    await this.#refreshHiding(current);
    const context = ` (storage of account ${bytesToHex(current.address)})`;
    const keys: Uint8Array[] = new Array(leaves.length);
    for (let i = 0; i < leaves.length; i++) {
      const slot = await lookupPreimage(preimages, leaves[i]!.hashedKey, "storage slot", context);
      keys[i] = overlay.keys.storageSlotKey(current.address, slot);
    }
    const hidden = await this.#tombstoned(current, keys);
    await overlay.load(keys);
    let written = 0;
    for (let i = 0; i < leaves.length; i++) {
      const key = keys[i]!;
      if (overlay.get(key) !== undefined) continue;
      const value = this.#baseValue(current, hidden[i] === true, leaves[i]!.value, true);
      if (value === undefined) continue;
      overlay.put(key, value);
      written++;
    }
    const last = leaves[leaves.length - 1];
    const c = this.#cursor;
    if (c.phase === "converting") {
      this.#cursor = {
        phase: "converting",
        account: c.account,
        lastSlot: last?.hashedKey ?? c.lastSlot,
        storageDone: exhausted,
      };
    }
    if (exhausted) this.#current = undefined;
    this.#counters = {
      ...this.#counters,
      storageSlots: this.#counters.storageSlots + leaves.length,
      leavesWritten: this.#counters.leavesWritten + written,
      leavesKept: this.#counters.leavesKept + (leaves.length - written),
    };
    return leaves.length;
  }

  /**
   * The value to write for a base leaf the overlay lacks: the base value, or — when the account
   * is wiped or the key tombstoned — a zero leaf in 'zero' mode and nothing in 'remove' mode.
   */
  #baseValue(
    current: CurrentAccount,
    tombstoned: boolean,
    value: Uint8Array,
    rlpStorage = false,
  ): Uint8Array | undefined {
    if (current.wiped || tombstoned)
      return this.#target.overlay.deletionMode === "zero" ? ZERO32 : undefined;
    return rlpStorage ? decodeStorageValue(value) : value;
  }

  /** Which keys have a leaf tombstone (none unless the account is marked as having some). */
  async #tombstoned(current: CurrentAccount, keys: readonly Uint8Array[]): Promise<boolean[]> {
    if (!current.tombstoned || current.wiped) return [];
    return this.#target.side.leafTombstoned(current.address, keys);
  }
}

async function* emptyWalk(): AsyncGenerator<MptLeaf> {}
