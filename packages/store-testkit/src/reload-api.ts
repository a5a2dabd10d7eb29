/** What the reload page exposes on globalThis for the Node driver to call. */
export interface ReloadPageApi {
  /** Builds the workload's tree in a fresh database at `location` (two commits); its root. */
  build(location: string): Promise<string>;
  /** Reopens the tree at `location`; its root and how many values differ from the workload. */
  reopen(location: string): Promise<{ root: string; mismatches: number; keys: number }>;
}

export const PAGE_API_NAME = "bintrieReloadPage";
