/** Bytes in a stem: the first 31 bytes of a tree key. */
export const STEM_SIZE = 31;

/** Bytes in a hash and in a leaf value. */
export const HASH_SIZE = 32;

/** Bytes of the presence bitmap in a stem blob (one bit per subindex). */
export const STEM_BITMAP_SIZE = 32;

/** Values per stem (subindex 0..255). */
export const STEM_WIDTH = 256;

/** Type byte of a stem blob. */
export const NODE_TYPE_STEM = 1;

/** Type byte of an internal blob (flat 65-byte or group). */
export const NODE_TYPE_INTERNAL = 2;

/** Largest group depth geth accepts (`MaxGroupDepth`). */
export const MAX_GROUP_DEPTH = 8;

/** Deepest node path in bits: a full stem (31 bytes). */
export const MAX_DEPTH = 248;

/** Size of the legacy flat internal blob `02 || left32 || right32`. */
export const FLAT_INTERNAL_BLOB_SIZE = 65;

/** Type byte + stem + bitmap, the part of a stem blob before its values. */
export const STEM_BLOB_HEADER_SIZE = 64;

/** Largest path key: 31 packed bytes for 248 bits plus the length byte. */
export const MAX_PATH_KEY_SIZE = 32;

/**
 * Database key prefix of a node: pathdb's table prefix "v" followed by the account-trie marker
 * "A". Shared instance: do not mutate it.
 */
export const NODE_KEY_PREFIX: Uint8Array = Uint8Array.of(0x76, 0x41);
