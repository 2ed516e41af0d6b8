// The console's V8 settings (src/config/v8-flags.ts) in a fresh process, applied from inside it as
// the launcher applies them (the packaged executable cannot carry command-line flags): under a
// poll's churn, where many objects survive a collection or two, the young generation stays at
// its first size instead of growing to V8's default 2 x 16 MB (peak RSS at 100,000 rows).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, expect, it } from 'vitest';

const root = path.join(__dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-v8-flags-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The young generation's size (MB) after the churn, in a process that applied the console's flags (or not). */
async function youngAfterChurn(apply: boolean): Promise<number> {
  const outfile = path.join(dir, `churn-${apply}.mjs`);
  await build({
    stdin: {
      contents: [
        "import { getHeapSpaceStatistics } from 'node:v8';",
        "import { applyV8Flags } from './src/config/v8-flags';",
        apply ? 'applyV8Flags();' : '',
        // Rows made as a poll makes them: most die young, one in ten lives on for a while.
        'let kept = [];',
        "for (let i = 0; i < 2e6; i++) { const row = { name: 'index-' + i, docs: i }; if (i % 10 === 0) kept.push(row); if (kept.length > 1e5) kept = []; }",
        "const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');",
        'process.stdout.write(String(young.space_size / 2 ** 20));',
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
  });
  return Number(execFileSync(process.execPath, [outfile], { encoding: 'utf8' }));
}

it('the young generation stays at its first size under a poll-like churn (it grows without the flags)', async () => {
  expect(await youngAfterChurn(true)).toBeLessThanOrEqual(4);
  // The same churn without them: V8 doubles it (the check above would mean nothing if it did not).
  expect(await youngAfterChurn(false)).toBeGreaterThan(8);
}, 60_000);
