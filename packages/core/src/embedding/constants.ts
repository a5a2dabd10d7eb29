/** EIP-7864 tree-embedding constants, as geth `trie/bintrie` uses them. */

/** Bytes in a tree key: stem (31) || subindex (1). */
export const KEY_SIZE = 32;
/** Bytes in a stem. */
export const STEM_SIZE = 31;
/** Values (subindices) per stem. */
export const STEM_SUBTREE_WIDTH = 256;

/** Subindex of the BASIC_DATA leaf on the account stem. */
export const BASIC_DATA_LEAF_KEY = 0;
/** Subindex of the CODE_HASH leaf on the account stem. */
export const CODE_HASH_LEAF_KEY = 1;
/** Storage slots 0..63 live at positions 64..127 of the account stem. */
export const HEADER_STORAGE_OFFSET = 64;
/** Code chunk i lives at position 128 + i. */
export const CODE_OFFSET = 128;
/** Storage slots >= 64 live at position 2^248 + slot. */
export const MAIN_STORAGE_OFFSET: bigint = 2n ** 248n;

/** Byte offsets inside the BASIC_DATA value (geth writes the code size as a uint32 at 4..7). */
export const BASIC_DATA_VERSION_OFFSET = 0;
export const BASIC_DATA_CODE_SIZE_OFFSET = 4;
export const BASIC_DATA_NONCE_OFFSET = 8;
export const BASIC_DATA_BALANCE_OFFSET = 16;

/** A code chunk is 1 metadata byte (leading PUSH-data count) + 31 code bytes. */
export const CODE_CHUNK_SIZE = 32;
export const CODE_BYTES_PER_CHUNK = 31;
