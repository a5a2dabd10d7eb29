import { nodeDbKey } from "@bintrie/codec";
import { openLevelStore } from "@bintrie/store-level";

/** Opens the database in this process, applies `change` to the node at `path`, closes it. */
export async function tamperNode(
  db: string,
  pathHex: string,
  change: (blob: Uint8Array | undefined) => Uint8Array | undefined,
): Promise<void> {
  const store = await openLevelStore(db, { createIfMissing: false });
  try {
    const key = nodeDbKey(Uint8Array.from(Buffer.from(pathHex.slice(2), "hex")));
    const next = change(await store.get(key));
    await store.batch(
      next === undefined ? [{ type: "del", key }] : [{ type: "put", key, value: next }],
    );
  } finally {
    await store.close();
  }
}
