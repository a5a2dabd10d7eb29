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
export { goJsonField } from "./go-json-field.js";
