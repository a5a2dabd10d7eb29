import { CliError, createProgram, EXIT_OK, EXIT_USAGE, FsRunStorage, runCli } from "@bintrie/cli";

const names = createProgram().commands.map((c) => c.name());
for (const name of [
  "build",
  "nodes",
  "root",
  "get",
  "put",
  "genesis",
  "key",
  "verify",
  "convert",
]) {
  if (!names.includes(name)) throw new Error(`cli: command ${name} missing`);
}
const code = await runCli(["node", "bintrie", "key", "0x0000000000000000000000000000000000000000"]);
if (code !== EXIT_OK) throw new Error(`cli: key exited ${code}`);
const bad = await runCli(["node", "bintrie", "key", "0x12"]);
if (bad !== EXIT_USAGE) throw new Error(`cli: a short address must exit 2, got ${bad}`);
await new FsRunStorage().dispose();
console.log("cli ok", new CliError("BAD_INPUT", "x").exitCode);
