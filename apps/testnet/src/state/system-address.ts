/**
 * The system caller of EIP-4788, 2935, 7002 and 7251 (geth's params.SystemAddress), unprefixed
 * lower-case hex, as the state manager keys accounts. The system calls use it, and the state
 * manager tells their touches of it from others'.
 */
export const SYSTEM_ADDRESS = "fffffffffffffffffffffffffffffffffffffffe";
