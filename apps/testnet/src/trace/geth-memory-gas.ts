import { fromTop } from "./geth-opcode-table.js";

/**
 * geth's reckoning of an instruction's memory before its gas (core/vm/memory_table.go,
 * common.go, gas.go): the size it grows memory to, where that overflows 64 bits, and the gas of
 * growing it.
 */

const U64 = 1n << 64n;

/** The largest memory geth's memory gas takes (memoryGasCost; more overflows). */
export const MAX_MEMORY_FOR_GAS = 0x1fffffffe0n;

/**
 * The memory size (whole words, in bytes) geth's interpreter computes for an instruction from
 * its operands before any gas (core/vm/memory_table.go), 0 for one that uses none; undefined
 * where geth's computation overflows 64 bits (ErrGasUintOverflow).
 */
export function gethMemorySize(op: number, stack: readonly bigint[]): bigint | undefined {
  const back = (i: number): bigint => fromTop(stack, i);
  let end: bigint | undefined;
  switch (op) {
    case 0x20:
    case 0xa0:
    case 0xa1:
    case 0xa2:
    case 0xa3:
    case 0xa4:
    case 0xf3:
    case 0xfd:
      end = memoryEnd(back(0), back(1));
      break;
    case 0x37:
    case 0x39:
    case 0x3e:
      end = memoryEnd(back(0), back(2));
      break;
    case 0x3c:
      end = memoryEnd(back(1), back(3));
      break;
    case 0x51:
    case 0x52:
      end = memoryEnd(back(0), 32n);
      break;
    case 0x53:
      end = memoryEnd(back(0), 1n);
      break;
    case 0x5e:
      // From the later of destination and source.
      end = largerEnd(memoryEnd(back(0), back(2)), memoryEnd(back(1), back(2)));
      break;
    case 0xf0:
    case 0xf5:
      end = memoryEnd(back(1), back(2));
      break;
    case 0xf1:
    case 0xf2:
      end = largerEnd(memoryEnd(back(5), back(6)), memoryEnd(back(3), back(4)));
      break;
    case 0xf4:
    case 0xfa:
      end = largerEnd(memoryEnd(back(4), back(5)), memoryEnd(back(2), back(3)));
      break;
    default:
      return 0n;
  }
  // Rounded up to whole words, which must fit 64 bits too.
  if (end === undefined || end > U64 - 32n) return undefined;
  return ((end + 31n) / 32n) * 32n;
}

/** geth's calcMemSize64: offset + length (0 for no length), undefined past 64 bits. */
function memoryEnd(offset: bigint, length: bigint): bigint | undefined {
  if (length === 0n) return 0n;
  if (offset >= U64 || length >= U64 || offset + length >= U64) return undefined;
  return offset + length;
}

function largerEnd(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  if (a === undefined || b === undefined) return undefined;
  return a > b ? a : b;
}

/** The gas of growing memory from `current` to `size` bytes (3 a word, words² / 512). */
export function memoryExpansionGas(current: number, size: bigint): bigint {
  if (size <= BigInt(current)) return 0n;
  const fee = (words: bigint): bigint => 3n * words + (words * words) / 512n;
  return fee(size / 32n) - fee(BigInt(current) / 32n);
}
