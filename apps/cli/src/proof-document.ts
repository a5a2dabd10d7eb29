import type { KeyScheme } from "@bintrie/core";
import { CliError } from "./cli-error.js";
import { parseHexArg } from "./hex.js";
import { SCHEME_CHOICES } from "./option-parsers.js";

/**
 * What `bintrie prove` prints and `bintrie verify-proof` reads: one JSON object holding the proof
 * and what it was made for. `root` is the prover's claim, shown for reference: a verifier checks
 * against a root it trusts (`--root`), never against the one in the document.
 */
export interface ProofDocument {
  readonly root: Uint8Array;
  readonly scheme: KeyScheme;
  readonly keys: readonly Uint8Array[];
  readonly proof: Uint8Array;
}

const FIELDS = ["root", "scheme", "keys", "proof"] as const;

/** The document as one line of JSON, hex lowercase. */
export function proofDocumentJson(
  document: ProofDocument,
  toHex: (b: Uint8Array) => string,
): string {
  return JSON.stringify({
    root: toHex(document.root),
    scheme: document.scheme,
    keys: document.keys.map(toHex),
    proof: toHex(document.proof),
  });
}

/**
 * Reads a proof document from `text` (the contents of `name`), naming the field at fault: the
 * four fields, each of its type, and no other (a misspelt field is not silently dropped).
 */
export function parseProofDocument(text: string, name: string): ProofDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError("BAD_INPUT", `${name}: not JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new CliError(
      "BAD_INPUT",
      `${name}: expected a JSON object {"root","scheme","keys","proof"} (what bintrie prove prints)`,
    );
  }
  const record = parsed as Record<string, unknown>;
  for (const field of Object.keys(record)) {
    if (!(FIELDS as readonly string[]).includes(field)) {
      throw new CliError(
        "BAD_INPUT",
        `${name}: unknown field ${JSON.stringify(field)} (a proof document has ${FIELDS.join(", ")})`,
      );
    }
  }
  for (const field of FIELDS) {
    if (record[field] === undefined) {
      throw new CliError("BAD_INPUT", `${name}: no ${JSON.stringify(field)} field`);
    }
  }
  const scheme = record.scheme;
  if (typeof scheme !== "string" || !(SCHEME_CHOICES as readonly string[]).includes(scheme)) {
    throw new CliError(
      "BAD_INPUT",
      `${name}: "scheme" must be one of ${SCHEME_CHOICES.join(", ")}, got ${shown(scheme)}`,
    );
  }
  const keys = record.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new CliError("BAD_INPUT", `${name}: "keys" must be a non-empty array of 32-byte keys`);
  }
  return {
    root: hexField(record.root, `${name}: "root"`, 32),
    scheme: scheme as KeyScheme,
    keys: keys.map((key, i) => hexField(key, `${name}: "keys"[${i}]`, 32)),
    proof: hexField(record.proof, `${name}: "proof"`),
  };
}

function hexField(value: unknown, what: string, bytes?: number): Uint8Array {
  if (typeof value !== "string") {
    throw new CliError("BAD_INPUT", `${what} must be a hex string, got ${shown(value)}`);
  }
  return parseHexArg(value, what, bytes === undefined ? {} : { bytes });
}

/** A JSON value as a message shows it: at most 80 characters. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
