import { EMPTY_MPT_ROOT } from "@bintrie/core";
import { bytesToHex, equalBytes } from "@bintrie/core/bytes";
import {
  BranchMPTNode,
  decodeMPTNode,
  decodeRawMPTNode,
  ExtensionMPTNode,
  LeafMPTNode,
  type MPTNode,
} from "@ethereumjs/mpt";
import { invalidArgument, rawBytesArgument } from "./arguments.js";
import { TransitionError } from "./transition-error.js";

/** One leaf of a secure (key-hashed) trie: the 32-byte hashed key and the stored value. */
export interface MptLeaf {
  readonly hashedKey: Uint8Array;
  readonly value: Uint8Array;
}

/** Reads encoded MPT nodes by hash, in the order asked (undefined where missing). */
export type MptNodeReader = (hashes: readonly Uint8Array[]) => Promise<(Uint8Array | undefined)[]>;

type ChildRef = Uint8Array | Uint8Array[];

interface Frame {
  readonly node: MPTNode;
  /** Nibble path from the root to this node. */
  readonly path: number[];
  /** Whether the path still equals the start key's prefix (children below it are skipped). */
  readonly onBound: boolean;
  next: number;
  children: (MPTNode | undefined)[] | undefined;
}

/**
 * Leaves of a secure trie in ascending hashed-key order, starting at the first key >= `start`
 * (a 32-byte hashed key; anything else is TransitionError('INVALID_ARGUMENT'), thrown at call
 * time).
 *
 * An explicit stack (no recursive generators), and one batched store read for the children of
 * each branch, so a full walk costs one round trip per branch. A node missing from the store is
 * a TransitionError('MISSING_BASE_DATA') naming its hash: a conversion must never skip data
 * silently (ethereumjs's own walker swallows missing nodes).
 *
 * @example
 * ```ts
 * import { MemoryStore } from "@bintrie/core";
 * import { buildMptBase, MptBase, walkMptLeaves } from "@bintrie/transition";
 *
 * const store = new MemoryStore();
 * const { root } = await buildMptBase(store, {
 *   "0x0100000000000000000000000000000000000000": { balance: "0x1" },
 * });
 * const base = await MptBase.open(store, root);
 * for await (const leaf of base.accounts()) console.log(leaf.hashedKey.length); // 32
 * // walkMptLeaves(reader, root) is the same walk over any MptNodeReader
 * ```
 */
export function walkMptLeaves(
  read: MptNodeReader,
  root: Uint8Array,
  start?: Uint8Array,
): AsyncGenerator<MptLeaf> {
  if (typeof read !== "function") throw invalidArgument("walkMptLeaves: read", "a function", read);
  return walkFrom(read, ...rootAndStart("walkMptLeaves", root, start));
}

/**
 * The root and start of a walk, checked and copied: a start key shorter than the trie's keys
 * would leave the walk's bound undefined below its last nibble (it never terminated).
 */
export function rootAndStart(
  operation: string,
  root: unknown,
  start: unknown,
): [Uint8Array, Uint8Array | undefined] {
  return [
    rawBytesArgument(`${operation}: root`, root, 32),
    start === undefined ? undefined : rawBytesArgument(`${operation}: start`, start, 32),
  ];
}

async function* walkFrom(
  read: MptNodeReader,
  root: Uint8Array,
  start: Uint8Array | undefined,
): AsyncGenerator<MptLeaf> {
  if (equalBytes(root, EMPTY_MPT_ROOT)) return;
  const bound = start === undefined ? undefined : toNibbles(start);
  const [rootBlob] = await read([root]);
  if (rootBlob === undefined) throw missing(root, "root node");
  const stack: Frame[] = [frame(decodeMPTNode(rootBlob), [], bound !== undefined)];
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    const node = f.node;
    if (node instanceof LeafMPTNode) {
      stack.pop();
      const full = f.path.concat(node.key());
      if (!f.onBound || compareNibbles(full, bound!) >= 0) {
        yield { hashedKey: fromNibbles(full), value: node.value() };
      }
    } else if (node instanceof ExtensionMPTNode) {
      stack.pop();
      const path = f.path.concat(node.key());
      let onBound = false;
      if (f.onBound) {
        const c = compareNibbles(path, bound!.slice(0, path.length));
        if (c < 0) continue;
        onBound = c === 0;
      }
      const [child] = await resolve(read, [node.value() as ChildRef]);
      stack.push(frame(child!, path, onBound));
    } else if (node instanceof BranchMPTNode) {
      const first = f.onBound ? bound![f.path.length]! : 0;
      if (f.children === undefined) {
        if (node.value() !== null) {
          // Keys of a secure trie all have 64 nibbles, so no value can end at a branch.
          throw new TransitionError(
            "MISSING_BASE_DATA",
            `MPT branch at a ${f.path.length}-nibble path holds a value: the base is not a key-hashed (secure) trie`,
          );
        }
        f.next = first;
        const refs: ChildRef[] = [];
        const at: number[] = [];
        for (let i = first; i < 16; i++) {
          const ref = node.getBranch(i);
          if (ref !== null) {
            refs.push(ref as ChildRef);
            at.push(i);
          }
        }
        const resolved = await resolve(read, refs);
        f.children = new Array(16);
        for (let k = 0; k < at.length; k++) f.children[at[k]!] = resolved[k];
      }
      let i = f.next;
      while (i < 16 && f.children[i] === undefined) i++;
      if (i >= 16) {
        stack.pop();
        continue;
      }
      f.next = i + 1;
      const child = f.children[i]!;
      f.children[i] = undefined; // release it once visited
      stack.push(frame(child, f.path.concat(i), f.onBound && i === first));
    }
  }
}

function frame(node: MPTNode, path: number[], onBound: boolean): Frame {
  return { node, path, onBound, next: 0, children: undefined };
}

/** Decodes inline children and reads hashed ones in one batch. */
async function resolve(read: MptNodeReader, refs: readonly ChildRef[]): Promise<MPTNode[]> {
  const out: MPTNode[] = new Array(refs.length);
  const hashes: Uint8Array[] = [];
  const at: number[] = [];
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i]!;
    if (Array.isArray(ref)) out[i] = decodeRawMPTNode(ref);
    else {
      hashes.push(ref);
      at.push(i);
    }
  }
  if (hashes.length > 0) {
    const blobs = await read(hashes);
    for (let k = 0; k < hashes.length; k++) {
      const blob = blobs[k];
      if (blob === undefined) throw missing(hashes[k]!, "node");
      out[at[k]!] = decodeMPTNode(blob);
    }
  }
  return out;
}

function missing(hash: Uint8Array, what: string): TransitionError {
  return new TransitionError(
    "MISSING_BASE_DATA",
    `MPT ${what} ${bytesToHex(hash)} is not in the store (incomplete or wrong base)`,
  );
}

function toNibbles(key: Uint8Array): number[] {
  const out = new Array<number>(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i]! >>> 4;
    out[2 * i + 1] = key[i]! & 0x0f;
  }
  return out;
}

function fromNibbles(nibbles: readonly number[]): Uint8Array {
  if (nibbles.length !== 64) {
    throw new TransitionError(
      "MISSING_BASE_DATA",
      `MPT leaf at a ${nibbles.length}-nibble path: the base is not a key-hashed (secure) trie`,
    );
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = (nibbles[2 * i]! << 4) | nibbles[2 * i + 1]!;
  return out;
}

function compareNibbles(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}
