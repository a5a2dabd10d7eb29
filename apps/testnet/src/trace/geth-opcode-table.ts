/**
 * geth's opcode table as its JSON opcode logger and its VM errors read it (core/vm/opcodes.go,
 * jump_table.go): an opcode's name, whatever the fork (0x44 is DIFFICULTY, 0x20 KECCAK256), and
 * the stack an opcode needs and leaves, from which geth words a stack error.
 */

/** Names by opcode range start: the names of consecutive opcodes from there. */
const NAME_RUNS: ReadonlyArray<readonly [number, string]> = [
  [0x00, "STOP ADD MUL SUB DIV SDIV MOD SMOD ADDMOD MULMOD EXP SIGNEXTEND"],
  [0x10, "LT GT SLT SGT EQ ISZERO AND OR XOR NOT BYTE SHL SHR SAR CLZ"],
  [0x20, "KECCAK256"],
  [
    0x30,
    "ADDRESS BALANCE ORIGIN CALLER CALLVALUE CALLDATALOAD CALLDATASIZE CALLDATACOPY CODESIZE CODECOPY GASPRICE EXTCODESIZE EXTCODECOPY RETURNDATASIZE RETURNDATACOPY EXTCODEHASH",
  ],
  [
    0x40,
    "BLOCKHASH COINBASE TIMESTAMP NUMBER DIFFICULTY GASLIMIT CHAINID SELFBALANCE BASEFEE BLOBHASH BLOBBASEFEE SLOTNUM",
  ],
  [
    0x50,
    "POP MLOAD MSTORE MSTORE8 SLOAD SSTORE JUMP JUMPI PC MSIZE GAS JUMPDEST TLOAD TSTORE MCOPY PUSH0",
  ],
  [0xa0, "LOG0 LOG1 LOG2 LOG3 LOG4"],
  [0xd0, "DATALOAD DATALOADN DATASIZE DATACOPY"],
  [0xe0, "RJUMP RJUMPI RJUMPV CALLF RETF JUMPF DUPN SWAPN EXCHANGE"],
  [0xec, "EOFCREATE"],
  [0xee, "RETURNCONTRACT"],
  [0xf0, "CREATE CALL CALLCODE RETURN DELEGATECALL CREATE2"],
  [0xf7, "RETURNDATALOAD EXTCALL EXTDELEGATECALL STATICCALL EXTSTATICCALL"],
  [0xfd, "REVERT INVALID SELFDESTRUCT"],
];

const NAMES: readonly string[] = (() => {
  const names = Array.from({ length: 256 }, () => "");
  for (const [start, run] of NAME_RUNS) {
    for (const [i, name] of run.split(" ").entries()) names[start + i] = name;
  }
  for (let n = 1; n <= 32; n++) names[0x5f + n] = `PUSH${n}`;
  for (let n = 1; n <= 16; n++) {
    names[0x7f + n] = `DUP${n}`;
    names[0x8f + n] = `SWAP${n}`;
  }
  return names;
})();

/** geth's `OpCode.String()`: the name, or `opcode 0xc not defined` (Go's %#x). */
export function gethOpcodeName(op: number): string {
  return NAMES[op] || `opcode 0x${op.toString(16)} not defined`;
}

/** Stack items an opcode takes and leaves, by range start (pops, pushes per opcode). */
const STACK_RUNS: ReadonlyArray<readonly [number, string]> = [
  // STOP .. SIGNEXTEND
  [0x00, "00 21 21 21 21 21 21 21 31 31 21 21"],
  // LT .. CLZ
  [0x10, "21 21 21 21 21 11 21 21 21 11 21 21 21 21 11"],
  [0x20, "21"],
  // ADDRESS .. EXTCODEHASH
  [0x30, "01 11 01 01 01 11 01 30 01 30 01 11 40 01 30 11"],
  // BLOCKHASH .. BLOBBASEFEE
  [0x40, "11 01 01 01 01 01 01 01 01 11 01"],
  // POP .. PUSH0
  [0x50, "10 11 20 20 11 20 10 20 01 01 01 00 11 20 30 01"],
  [0xa0, "20 30 40 50 60"],
  // CREATE CALL CALLCODE RETURN DELEGATECALL CREATE2
  [0xf0, "31 71 71 20 61 41"],
  [0xfa, "61"],
  [0xfd, "20 00 10"],
];

const POPS = new Uint8Array(256);
const PUSHES = new Uint8Array(256);
for (const [start, run] of STACK_RUNS) {
  for (const [i, pair] of run.split(" ").entries()) {
    POPS[start + i] = Number(pair[0]);
    PUSHES[start + i] = Number(pair[1]);
  }
}
for (let n = 1; n <= 32; n++) PUSHES[0x5f + n] = 1;
for (let n = 1; n <= 16; n++) {
  POPS[0x7f + n] = n;
  PUSHES[0x7f + n] = n + 1;
  POPS[0x8f + n] = n + 1;
  PUSHES[0x8f + n] = n + 1;
}

/** geth's stack limit (params.StackLimit). */
const STACK_LIMIT = 1024;

/**
 * The error geth's interpreter gives an opcode of the fork on a stack of `length` items before
 * it charges any gas (ErrStackUnderflow, ErrStackOverflow), or undefined when the stack fits.
 */
export function gethStackError(op: number, length: number): string | undefined {
  const min = POPS[op]!;
  const max = STACK_LIMIT + min - PUSHES[op]!;
  if (length < min) return `stack underflow (${length} <=> ${min})`;
  if (length > max) return `stack limit reached ${length} (${max})`;
  return undefined;
}

/** The stack item `i` below the top (0: the top), 0 past the bottom. */
export function fromTop(stack: readonly bigint[], i: number): bigint {
  return stack[stack.length - 1 - i] ?? 0n;
}
