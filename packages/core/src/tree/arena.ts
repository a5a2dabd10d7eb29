import { HashedPool } from "./hashed-pool.js";
import { InternalPool } from "./internal-pool.js";
import {
  EMPTY_REF,
  KIND_HASHED,
  KIND_INTERNAL,
  KIND_STEM,
  type NodeRef,
  refIndex,
  refKind,
} from "./node-ref.js";
import { StemPool } from "./stem-pool.js";

/** A stored blob whose node moved or disappeared: its path is deleted unless rewritten. */
export interface OrphanPath {
  /** Path bits, MSB-first (only the first `depth` bits count). */
  readonly bits: Uint8Array;
  readonly depth: number;
}

/** The node pools and the root: everything the tree is, as typed arrays. */
export class Arena {
  readonly internals = new InternalPool();
  readonly stems = new StemPool();
  readonly hashed = new HashedPool();
  root: NodeRef = EMPTY_REF;
  orphans: OrphanPath[] = [];

  /** Writes the 32-byte hash of `ref` (cached or stored; zero for empty) to out[offset]. */
  writeHash(ref: NodeRef, out: Uint8Array, offset: number): void {
    const kind = refKind(ref);
    const index = refIndex(ref);
    if (kind === KIND_INTERNAL) {
      const src = this.internals.hashChunk(index);
      const at = this.internals.hashOffset(index);
      out.set(src.subarray(at, at + 32), offset);
    } else if (kind === KIND_STEM) {
      const src = this.stems.hashChunk(index);
      const at = this.stems.hashOffset(index);
      out.set(src.subarray(at, at + 32), offset);
    } else if (kind === KIND_HASHED) {
      const src = this.hashed.hashChunk(index);
      const at = this.hashed.hashOffset(index);
      out.set(src.subarray(at, at + 32), offset);
    } else {
      out.fill(0, offset, offset + 32);
    }
  }

  /** Live node counts per kind. */
  counts(): { internal: number; stem: number; hashed: number } {
    return { internal: this.internals.live, stem: this.stems.live, hashed: this.hashed.live };
  }

  /** Bytes held by every pool's typed arrays. */
  bytes(): number {
    return this.internals.bytes + this.stems.bytes + this.hashed.bytes;
  }
}
