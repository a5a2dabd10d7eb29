// @bintrie/core/hash: the node-hash rules one node at a time, and the BLAKE3 hasher.
export { createBlake3Hasher } from "./blake3-hasher.js";
export { HashError, type HashErrorCode } from "./errors.js";
export { getHasher } from "./get-hasher.js";
export {
  DEFAULT_HASH_FUNCTION,
  type Hasher,
  type HashFunctionName,
  type Sha256BatchKernel,
} from "./hasher.js";
export {
  EMPTY_HASH,
  hashInternal,
  hashLeafValue,
  hashStem,
  type SparseStemValues,
} from "./node-hash.js";
