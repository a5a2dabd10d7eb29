// @bintrie/core/proof: multi-key inclusion/absence proofs and their verifier.
export { ProofError, type ProofErrorCode } from "./proof-error.js";
export { PROOF_VERSION } from "./proof-format.js";
export { prove, proveSync } from "./prove.js";
export { type VerifyProofOptions, verifyProof } from "./verify-proof.js";
