/** `bintrie CMD` (or `bintrie` before a command is known): what every failure line starts with. */
export function linePrefix(commandName: string): string {
  return commandName === "" ? "bintrie" : `bintrie ${commandName}`;
}
