// Every ESLint disable comment says why (`-- reason`): a rule switched off on a line is a decision
// the next reader must be able to check. (ESLint itself reports the ones that silence nothing:
// reportUnusedDisableDirectives in eslint.config.js.)
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['src', 'test', 'dev', 'bench'];
// Built from parts so this file's own samples are not comments ESLint would read.
const DIRECTIVE = new RegExp(`(//|/\\*)\\s*eslint-${'disable'}(-next-line|-line)?\\b(.*)$`);

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    // bench/out: the benchmark's bundles (gitignored), third-party comments included.
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === '__screens__' || p === path.resolve('bench', 'out') ? [] : files(p);
    return /\.(ts|tsx|mjs|js)$/.test(e.name) ? [p] : [];
  });
}

/** The disable comments of `text` that give no reason, as "line: text". */
export function disablesWithoutReason(text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    const m = DIRECTIVE.exec(line);
    return m && !/\S\s+--\s+\S/.test(m[3]) ? [`${i + 1}: ${line.trim()}`] : [];
  });
}

describe('ESLint disable comments', () => {
  it('the check itself: a disable without a reason is caught, one with a reason passes', () => {
    const d = `eslint-${'disable'}`;
    expect(disablesWithoutReason(`x;\n  // ${d}-next-line no-control-regex\nconst r = 1;`)).toEqual([
      `2: // ${d}-next-line no-control-regex`,
    ]);
    expect(disablesWithoutReason(`f(); // ${d}-line react-hooks/exhaustive-deps`)).toHaveLength(1);
    expect(disablesWithoutReason(`// ${d}-next-line no-control-regex -- the sanitiser matches control characters`)).toEqual([]);
  });

  it('every one in the repository says why', () => {
    const found = ROOTS.flatMap((root) =>
      files(path.resolve(root)).flatMap((f) =>
        disablesWithoutReason(fs.readFileSync(f, 'utf8')).map((l) => `${path.relative('.', f)}:${l}`),
      ),
    );
    expect(found).toEqual([]);
  });
});
