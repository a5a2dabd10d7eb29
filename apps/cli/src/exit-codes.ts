/** Process exit codes of the `bintrie` command (a contract: scripts test them). */
export const EXIT_OK = 0;
/** Verification failed, a store is corrupt, or a requested value is absent. */
export const EXIT_FAILURE = 1;
/** Bad usage or bad input: nothing was written. */
export const EXIT_USAGE = 2;

export type ExitCode = typeof EXIT_OK | typeof EXIT_FAILURE | typeof EXIT_USAGE;
