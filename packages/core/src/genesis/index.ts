export {
  type ApplyGenesisOptions,
  applyGenesisAlloc,
  type GenesisSummary,
} from "./apply-genesis.js";
export {
  type GenesisAccount,
  type GenesisAlloc,
  GenesisError,
  type GenesisErrorCode,
} from "./genesis-alloc.js";
export { type GenesisJsonShape, parseGenesisJson } from "./genesis-json.js";
export { goJsonField } from "./go-json-field.js";
