import { GenesisError } from "./genesis-alloc.js";

/** What a JSON text holds at its top: a genesis (its alloc under `alloc`) or an alloc itself. */
export type GenesisJsonShape = "genesis" | "alloc";

/**
 * `JSON.parse` for a genesis file (or an alloc) that reads the alloc's quantities as
 * go-ethereum does. geth's `balance` and `nonce` types (`math.HexOrDecimal256`/`64`) read a bare
 * JSON number by its text, exactly as they read a quoted one: so here a bare number there
 * becomes its literal text (`1000000000000000000000` → the string "1000000000000000000000",
 * exact past 2^53, where `JSON.parse` would round it; `1e3` → "1e3", which parseGenesisAlloc
 * refuses as geth does). Field names match in any letter case, as geth's decoder matches them.
 * Every other value is what `JSON.parse` gives. Throws a GenesisError (INVALID_JSON) for text
 * that is not JSON.
 *
 * @example
 * ```ts
 * import { parseGenesisAlloc, parseGenesisJson } from "@bintrie/core";
 *
 * const genesis = parseGenesisJson(
 *   '{"alloc": {"0x00000000000000000000000000000000000000aa": {"balance": 1000000000000000000000}}}',
 * ) as { alloc: Parameters<typeof parseGenesisAlloc>[0] };
 * console.log(parseGenesisAlloc(genesis.alloc)[0]!.balance); // → 1000000000000000000000n
 * ```
 */
export function parseGenesisJson(text: string, shape: GenesisJsonShape = "genesis"): unknown {
  const literals = quantityLiterals(text, shape === "genesis" ? Role.Genesis : Role.Alloc);
  try {
    return JSON.parse(literals.length === 0 ? text : quoted(text, literals));
  } catch (error) {
    // The original's own message (a rewrite only quotes literals, so it fails the same way).
    let message = (error as Error).message;
    try {
      JSON.parse(text);
    } catch (original) {
      message = (original as Error).message;
    }
    throw new GenesisError("INVALID_JSON", `not JSON (${message})`);
  }
}

/** What a value is to the scan: only an account's balance and nonce numbers are kept as text. */
const Role = { Other: 0, Genesis: 1, Alloc: 2, Account: 3, Quantity: 4 } as const;
type Role = (typeof Role)[keyof typeof Role];

/** A JSON number literal (RFC 8259): a quoted copy is what geth's text reader gets. */
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The text with each [start, end) of `literals` in quotes. */
function quoted(text: string, literals: readonly number[]): string {
  const parts: string[] = [];
  let last = 0;
  for (let i = 0; i < literals.length; i += 2) {
    parts.push(text.slice(last, literals[i]), '"', text.slice(literals[i], literals[i + 1]), '"');
    last = literals[i + 1]!;
  }
  parts.push(text.slice(last));
  return parts.join("");
}

/**
 * Where the bare numbers of alloc balances and nonces are, as [start, end) pairs. A structure
 * scan, no values built; on text that is not JSON it gives up with none (JSON.parse then says
 * what is wrong).
 */
function quantityLiterals(text: string, top: Role): number[] {
  const scan = new LiteralScan(text);
  try {
    scan.value(top);
    return scan.literals;
  } catch {
    return [];
  }
}

class LiteralScan {
  readonly literals: number[] = [];
  #at = 0;
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  value(role: Role): void {
    this.#space();
    const text = this.#text;
    const c = text.charCodeAt(this.#at);
    if (c === 0x7b) this.#object(role);
    else if (c === 0x5b) this.#array();
    else if (c === 0x22) this.#string();
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = this.#at;
      while (this.#at < text.length && isNumberChar(text.charCodeAt(this.#at))) this.#at++;
      if (role === Role.Quantity && NUMBER.test(text.slice(start, this.#at))) {
        this.literals.push(start, this.#at);
      }
    } else {
      // true, false, null (JSON.parse checks the spelling).
      const start = this.#at;
      while (this.#at < text.length && isLetter(text.charCodeAt(this.#at))) this.#at++;
      if (this.#at === start) throw new SyntaxError("unexpected character");
    }
  }

  #object(role: Role): void {
    this.#at++;
    this.#space();
    if (this.#text.charCodeAt(this.#at) === 0x7d) {
      this.#at++;
      return;
    }
    for (;;) {
      this.#space();
      const key = this.#string(role === Role.Genesis || role === Role.Account);
      this.#space();
      this.#expect(0x3a);
      this.value(childRole(role, key));
      this.#space();
      const c = this.#text.charCodeAt(this.#at++);
      if (c === 0x7d) return;
      if (c !== 0x2c) throw new SyntaxError("expected , or }");
    }
  }

  #array(): void {
    this.#at++;
    this.#space();
    if (this.#text.charCodeAt(this.#at) === 0x5d) {
      this.#at++;
      return;
    }
    for (;;) {
      this.value(Role.Other);
      this.#space();
      const c = this.#text.charCodeAt(this.#at++);
      if (c === 0x5d) return;
      if (c !== 0x2c) throw new SyntaxError("expected , or ]");
    }
  }

  /** Skips a string; returns its value, lowercased, when `wanted` (a key to match). */
  #string(wanted = false): string {
    const text = this.#text;
    if (text.charCodeAt(this.#at) !== 0x22) throw new SyntaxError("expected a string");
    const start = this.#at;
    let end = start;
    for (;;) {
      end = text.indexOf('"', end + 1);
      if (end < 0) throw new SyntaxError("unterminated string");
      let slashes = 0;
      while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) break;
    }
    this.#at = end + 1;
    if (!wanted) return "";
    const raw = text.slice(start, end + 1);
    return (raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1)).toLowerCase();
  }

  #expect(code: number): void {
    if (this.#text.charCodeAt(this.#at) !== code) throw new SyntaxError("unexpected character");
    this.#at++;
  }

  #space(): void {
    const text = this.#text;
    for (;;) {
      const c = text.charCodeAt(this.#at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.#at++;
    }
  }
}

/** The role of the value under `key` (lowercased) in an object of `role`. */
function childRole(role: Role, key: string): Role {
  if (role === Role.Genesis) return key === "alloc" ? Role.Alloc : Role.Other;
  if (role === Role.Alloc) return Role.Account;
  if (role === Role.Account)
    return key === "balance" || key === "nonce" ? Role.Quantity : Role.Other;
  return Role.Other;
}

function isNumberChar(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45
  );
}

function isLetter(c: number): boolean {
  return c >= 0x61 && c <= 0x7a;
}
