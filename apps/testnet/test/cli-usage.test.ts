import { KEY_SCHEMES } from "@bintrie/core";
import { describe, expect, it } from "vitest";
import { SCHEME_CHOICES } from "../src/cli/option-parsers.js";
import { runBuilt, VERSION } from "./cli-process.js";

const COMMANDS = ["run", "fill", "t8n", "devnet"] as const;

describe("bintrie-testnet usage (built CLI)", () => {
  it("--version and -V print the package version, exit 0", () => {
    for (const args of [["--version"], ["-V"]]) {
      expect(runBuilt(args)).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: "" });
    }
  });

  it("every command has --version", () => {
    for (const command of COMMANDS) {
      expect(runBuilt([command, "--version"])).toEqual({
        status: 0,
        stdout: `${VERSION}\n`,
        stderr: "",
      });
    }
  });

  it("--help lists every command with a description", () => {
    const { status, stdout } = runBuilt(["--help"]);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^Usage: bintrie-testnet \[options\] \[command\]/);
    expect(stdout).toMatch(/run \[options\] <PATH\.\.\.>\s+run blockchain tests on binary-tree/);
    expect(stdout).toMatch(/fill \[options\] <IN\.\.\.>\s+re-execute fixtures/);
    expect(stdout).toMatch(/t8n \[options\]\s+one state transition with geth's evm t8n/);
    expect(stdout).toMatch(/devnet \[options\]\s+produce blocks/);
    expect(stdout).toContain("Exit codes: 0 success, 1");
  });

  it("run --help exits 0 and describes its options", () => {
    const { status, stdout, stderr } = runBuilt(["run", "--help"]);
    expect(status).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toMatch(/^Usage: bintrie-testnet run \[options\] <PATH\.\.\.>/);
    expect(stdout).toMatch(/--json\s+print one JSON object per test/);
    expect(stdout).toMatch(/--filter <REGEX>\s+only tests whose "file :: name" matches/);
    expect(stdout).toMatch(/--scheme <S>\s+key scheme/);
    expect(stdout).toContain('"sha256-be"');
    expect(stdout).toContain("Examples:");
  });

  it("every command's --help exits 0 with its usage line; `help CMD` is the same text", () => {
    for (const command of COMMANDS) {
      const help = runBuilt([command, "--help"]);
      expect(help.status).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: bintrie-testnet ${command} `));
      expect(runBuilt(["help", command]).stdout).toBe(help.stdout);
    }
    const t8n = runBuilt(["t8n", "--help"]).stdout;
    for (const flag of ["--input.alloc", "--input.env", "--input.txs", "--output.result"]) {
      expect(t8n).toContain(flag);
    }
    expect(t8n).toMatch(/--output\.basedir <DIR>\s+where output files are written/);
  });

  it("an unknown option exits 2 with commander's message naming it", () => {
    expect(runBuilt(["run", "x.json", "--bogus"])).toEqual({
      status: 2,
      stdout: "",
      stderr: "bintrie-testnet run: unknown option '--bogus'\n",
    });
    // A geth t8n switch not offered here is refused, not ignored.
    expect(runBuilt(["t8n", "--trace", "--trace.tracer", "callTracer"])).toMatchObject({
      status: 2,
      stderr: "bintrie-testnet t8n: unknown option '--trace.tracer'\n",
    });
  });

  it("an unknown command, a missing command, a missing argument or required option exit 2", () => {
    const unknown = runBuilt(["frobnicate"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe("bintrie-testnet: unknown command 'frobnicate'\n");
    const bare = runBuilt([]);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toMatch(/^Usage: bintrie-testnet/);
    expect(runBuilt(["run"])).toMatchObject({
      status: 2,
      stderr: "bintrie-testnet run: missing required argument 'PATH'\n",
    });
    expect(runBuilt(["fill", "x.json"])).toMatchObject({
      status: 2,
      stderr: "bintrie-testnet fill: required option '--out <DIR>' not specified\n",
    });
  });

  it("--scheme offers exactly the core's key schemes", () => {
    expect(SCHEME_CHOICES).toEqual(KEY_SCHEMES);
  });

  it("bad option values exit 2 before any work, naming the option", () => {
    const badRegex = runBuilt(["run", "x.json", "--filter", "("]);
    expect(badRegex.status).toBe(2);
    expect(badRegex.stderr).toMatch(
      /^bintrie-testnet run: option '--filter <REGEX>' argument '\('/,
    );
    expect(badRegex.stderr).toContain("not a regular expression");
    expect(runBuilt(["run", "x.json", "--scheme", "md5"]).status).toBe(2);
    expect(runBuilt(["devnet", "--blocks", "0"]).stderr).toContain("--blocks <N>");
    expect(runBuilt(["t8n", "--state.chainid", "one"]).status).toBe(2);
    // geth's --state.reward is an int64 of wei (a proof-of-work reward passes 2^53).
    const overInt64 = runBuilt(["t8n", "--state.reward", "9223372036854775808"]);
    expect(overInt64.status).toBe(2);
    expect(overInt64.stderr).toContain("int64");
    expect(runBuilt(["t8n", "--state.reward", "1.5"]).status).toBe(2);
  });
});
