// @bintrie/core/bytes: the byte helpers every package of the project shares.
export {
  bytesToKeyString,
  compareBytes,
  equalBytes,
  keyStringToBytes,
} from "../store/bytes-order.js";
export { equalBitPrefix } from "./bit-prefix.js";
export { type BytesLike, bytesToHex, hexToBytes, toBytes } from "./hex.js";
export { isZero } from "./is-zero.js";
export { copyBytes, ownedBytes } from "./owned-bytes.js";
