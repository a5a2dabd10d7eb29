import { TestnetError } from "../chain/testnet-error.js";

/** A transaction a devnet block cannot take (INVALID_INPUT): its place and the library's reason. */
export class TransactionRefused extends TestnetError {
  /** The transaction's index in the block it was given for. */
  readonly index: number;
  /** Why, in the library's words, without its block and transaction dump. */
  readonly reason: string;

  constructor(block: bigint, index: number, hash: string, reason: string) {
    super(
      "INVALID_INPUT",
      `block ${block}: transaction ${index} (${hash}) cannot be included: ${reason}`,
    );
    this.index = index;
    this.reason = reason;
  }
}

/** The library's reason for refusing a transaction or call, without the context it appends. */
export function libraryReason(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  // The library appends " (block=… tx=…)" / " -> block …" context to its messages.
  const cut = message.search(/ \(block|\s*->\s*block|\s+tx hash=/);
  return cut > 0 ? message.slice(0, cut) : message;
}
