export { type OpenWitnessOptions, openWitness } from "./open-witness.js";
export type { Witness, WitnessNode } from "./witness.js";
export { decodeWitness, encodeWitness, WITNESS_FORMAT_VERSION } from "./witness-codec.js";
