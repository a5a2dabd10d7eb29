// geth's own `evm` binary, for the live cross-checks only: they run where GETH_EVM names it
// (the geth-evm tool's bin/evm). Every other test reads geth's outputs vendored under test/data,
// so a clone anywhere runs without it.
export const GETH_EVM: string | undefined = process.env.GETH_EVM || undefined;
