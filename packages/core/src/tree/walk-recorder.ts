/**
 * Told by the TreeWalker about every key walk before the walk changes anything: a witness
 * recorder uses it to capture the stored form of each node the walk will read or reshape.
 */
export interface WalkRecorder {
  /** A lookup of the stem of key[ko..ko+31). */
  read(key: Uint8Array, ko: number): void;
  /** An insert descent for key[ko..ko+31) (may split a stem or fill an empty slot). */
  write(key: Uint8Array, ko: number): void;
  /** A removal of `key` ('remove' mode: may collapse the path, moving a sibling stem up). */
  remove(key: Uint8Array): void;
}
