/**
 * Roots of the shared workload (SHA-256) from shared/spec/peer-ethereumjs.md §2, where
 * ethereumjs and the naive reference agree: after N inserts, and after the 1,000 updates.
 */
export const SHARED_ROOTS: Record<number, { insert: string; updates: string }> = {
  10000: {
    insert: "18e08444214b1aeecfbb72f3a60da2e373f8efcb2d457287233b6315523d5333",
    updates: "2d094ef0e7b95c625b9ae0e45c1ec288fe7a8677c0d33b01187a1a16d5e2c096",
  },
  100000: {
    insert: "8a2c2c5b82247ba94468e3053e7a032e2cb8ef6dc4f9277ad8dae81421e02a3a",
    updates: "9e5352149d9a53005171a2b1f429ec36c45a28f509f6d8442d3f8b92ebd25b3f",
  },
};
