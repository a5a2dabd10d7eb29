// Shows what `pnpm changeset version` would do, without touching the working tree: copies the
// repository's tracked files to a temp folder, runs it there, and prints the new versions and
// changelog heads. Exits non-zero unless every public package gets a sane version and CHANGELOG.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "bintrie-changeset-"));
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

try {
  // Tracked and new (not ignored) files, as they are in the working tree.
  const files = run("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], root)
    .split("\0")
    .filter(Boolean);
  run(
    "tar",
    ["-cf", join(work, "repo.tar"), "-C", root, ...files.filter((f) => existsSync(join(root, f)))],
    root,
  );
  run("tar", ["-xf", "repo.tar"], work);
  symlinkSync(join(root, "node_modules"), join(work, "node_modules"));
  run("git", ["init", "-q"], work);
  const before = new Map();
  const dirs = [
    "packages/codec",
    "packages/core",
    "packages/store-level",
    "packages/store-idb",
    "packages/transition",
    "apps/cli",
    "apps/testnet",
  ];
  for (const d of dirs)
    before.set(d, JSON.parse(readFileSync(join(work, d, "package.json"), "utf8")).version);
  run(process.execPath, [join(root, "node_modules/@changesets/cli/bin.js"), "version"], work);
  let bad = 0;
  for (const d of dirs) {
    const manifest = JSON.parse(readFileSync(join(work, d, "package.json"), "utf8"));
    const changelog = join(work, d, "CHANGELOG.md");
    const head = existsSync(changelog)
      ? readFileSync(changelog, "utf8").split("\n").slice(0, 3).join(" / ")
      : "(no CHANGELOG)";
    const ok =
      /^\d+\.\d+\.\d+$/.test(manifest.version) &&
      manifest.version !== before.get(d) &&
      existsSync(changelog);
    for (const [dep, range] of Object.entries(manifest.dependencies ?? {})) {
      if (dep.startsWith("@bintrie/") && !String(range).startsWith("workspace:")) {
        console.log(`  ${manifest.name}: dependency ${dep} became ${range}`);
      }
    }
    if (!ok) bad++;
    console.log(
      `${ok ? "ok " : "BAD"} ${manifest.name}: ${before.get(d)} → ${manifest.version}  ${head}`,
    );
  }
  console.log(`changeset dry run: ${dirs.length - bad} passed, ${bad} failed`);
  process.exitCode = bad === 0 ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
