// The unit projects share one module graph per worker (isolate: false, vitest.config.ts): a file
// that replaces a module with vi.mock must run in the isolated project, or its mock silently
// never applies (seen: windowing.test.tsx counted 0 sorts).
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { MODULE_MOCKS } from '../../vitest.config';

function testFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? testFiles(p) : /\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Files of the shared-graph projects that replace a module. */
export function mockingFiles(root: string): string[] {
  return ['test/domain', 'test/ui', 'test/unit', 'test/snapshots']
    .flatMap((d) => testFiles(path.join(root, d)))
    .filter((f) => /^\s*vi\.(mock|doMock)\(/m.test(fs.readFileSync(f, 'utf8')))
    .map((f) => path.relative(root, f))
    .sort();
}

it('every test file that calls vi.mock runs in the isolated project, and only those', () => {
  expect(mockingFiles(process.cwd())).toEqual([...MODULE_MOCKS].sort());
});

it('a planted vi.mock in a shared-graph file is found', () => {
  const root = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'mocks-'));
  fs.mkdirSync(path.join(root, 'test/unit'), { recursive: true });
  fs.writeFileSync(path.join(root, 'test/unit/planted.test.ts'), "vi.mock('../../src/x');\n");
  fs.writeFileSync(path.join(root, 'test/unit/plain.test.ts'), "it('x', () => {});\n");
  try {
    expect(mockingFiles(root)).toEqual(['test/unit/planted.test.ts']);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
