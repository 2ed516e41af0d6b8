// A skipped test is a defect unless it names a reason docs/DEVELOPMENT.md lists (section "Tests
// that may skip"): this reporter sets a failing exit code otherwise, and on any skip at all where CI is set
// (CI runs as root, so nothing there has a reason to skip). A run filtered by name (-t) skips on
// purpose and is not judged.
import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

const SECTION = '## Tests that may skip';
/** The page that lists the reasons, relative to the repository's root. */
export const SKIP_REASONS_PAGE = 'docs/DEVELOPMENT.md';

/** The reasons the page lists: "- `[needs root]`: ..." lines of its section. */
export function listedSkipReasons(page: string): string[] {
  const start = page.indexOf(SECTION);
  if (start < 0) return [];
  const rest = page.slice(start + SECTION.length);
  const end = rest.search(/\n#{1,3} /);
  const body = end < 0 ? rest : rest.slice(0, end);
  return [...body.matchAll(/^- `(\[[^\]`]+\])`/gm)].map((m) => m[1]);
}

/** One sentence per skipped test that may not skip here; empty when every skip is allowed. */
export function judgeSkips(skipped: readonly string[], reasons: readonly string[], ci: boolean): string[] {
  return skipped.flatMap((name) => {
    if (ci) return [`skipped where CI is set: ${name}`];
    return reasons.some((r) => name.includes(r))
      ? []
      : [`skipped without a reason ${SKIP_REASONS_PAGE} lists (${reasons.join(', ') || 'none listed'}): ${name}`];
  });
}

export default class SkipCheck implements Reporter {
  private filtered = false;
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.filtered = Boolean(vitest.config.testNamePattern);
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (this.filtered) return;
    const skipped = modules.flatMap((m) =>
      [...m.children.allTests('skipped')].map((t) => `${path.relative(this.root, m.moduleId)} > ${t.fullName}`),
    );
    if (!skipped.length) return;
    const page = fs.readFileSync(path.join(this.root, SKIP_REASONS_PAGE), 'utf8');
    const problems = judgeSkips(skipped, listedSkipReasons(page), Boolean(process.env.CI));
    if (!problems.length) return;
    process.stderr.write(
      `\nskip check (test/setup/skip-check.ts): ${problems.length} skipped test(s) fail the run:\n${problems.map((p) => `  ${p}`).join('\n')}\n`,
    );
    process.exitCode = 1;
  }
}
