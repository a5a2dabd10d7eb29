import type { ReadmeBlock } from "./extract.js";

/**
 * What a block says it prints: the text after `// → ` (ts, js) or `# → ` (sh) at the end of a
 * line, one expected stdout line each, in order. `…` stands for any run of characters.
 */
export function expectedOutput(block: ReadmeBlock): string[] {
  const marker = block.language === "sh" ? /(?:^|\s)# → (.*)$/ : /\/\/ → (.*)$/;
  const out: string[] = [];
  for (const line of block.code.split("\n")) {
    const match = marker.exec(line);
    if (match !== null) out.push(match[1]!.trimEnd());
  }
  return out;
}

function pattern(expected: string): RegExp {
  const parts = expected.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`);
}

/**
 * Checks that the expected lines appear among the printed lines in order (other lines may come
 * between them); returns what is wrong, or undefined.
 */
export function outputMismatch(expected: readonly string[], printed: string): string | undefined {
  const lines = printed.split("\n").map((line) => line.trimEnd());
  let at = 0;
  for (const want of expected) {
    const re = pattern(want);
    while (at < lines.length && !re.test(lines[at]!)) at++;
    if (at === lines.length) {
      return `expected a line ${JSON.stringify(want)} (in order) in the output:\n${printed}`;
    }
    at++;
  }
  return undefined;
}
