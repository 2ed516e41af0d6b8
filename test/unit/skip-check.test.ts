// The skip check's two rules on plain values, and the real list of docs/DEVELOPMENT.md.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SKIP_REASONS_PAGE, judgeSkips, listedSkipReasons } from '../setup/skip-check';

const PAGE = [
  '# x',
  '## Tests that may skip',
  'text',
  '- `[needs root]`: apt-get.',
  '- `[needs tmux]`: a terminal.',
  '',
  '# Next',
  '- `[not this]`: another section.',
].join('\n');

describe('skip check', () => {
  it('reads the reasons of its section only', () => {
    expect(listedSkipReasons(PAGE)).toEqual(['[needs root]', '[needs tmux]']);
    expect(listedSkipReasons('# no such section\n- `[needs root]`: x')).toEqual([]);
  });

  it('a skip passes only with a listed reason in its name, and never where CI is set', () => {
    const reasons = ['[needs root]'];
    expect(judgeSkips(['a.test.ts > the .deb [needs root] > installs'], reasons, false)).toEqual([]);
    expect(judgeSkips(['a.test.ts > flaky one'], reasons, false)).toEqual([
      'skipped without a reason docs/DEVELOPMENT.md lists ([needs root]): a.test.ts > flaky one',
    ]);
    expect(judgeSkips(['a.test.ts > [not this] x'], reasons, false)).toHaveLength(1);
    expect(judgeSkips(['a.test.ts > the .deb [needs root] > installs'], reasons, true)).toEqual([
      'skipped where CI is set: a.test.ts > the .deb [needs root] > installs',
    ]);
    expect(judgeSkips([], reasons, true)).toEqual([]);
  });

  it("docs/DEVELOPMENT.md lists the package suites' reason, and their names carry it", () => {
    expect(listedSkipReasons(fs.readFileSync(SKIP_REASONS_PAGE, 'utf8'))).toContain('[needs root]');
    const names = [...fs.readFileSync('test/integration/package.test.ts', 'utf8').matchAll(/describe\.skipIf\(!isRoot\)\('([^']*)'/g)].map(
      (m) => m[1],
    );
    expect(names).toHaveLength(2);
    for (const n of names) expect(n).toContain('[needs root]');
  });
});
