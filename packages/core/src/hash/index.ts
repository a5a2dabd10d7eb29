export { createBlake3Hasher } from "./blake3-hasher.js";
export { HashError, type HashErrorCode } from "./errors.js";
export { getHasher } from "./get-hasher.js";
export {
  DEFAULT_HASH_FUNCTION,
  type Hasher,
  type HashFunctionName,
  type Sha256BatchKernel,
} from "./hasher.js";
export { createNobleSha256Kernel } from "./noble-sha256-kernel.js";
export {
  EMPTY_HASH,
  hashInternal,
  hashLeafValue,
  hashStem,
  hashStemSparse,
} from "./node-hash.js";
export { createSha256Hasher } from "./sha256-hasher.js";
