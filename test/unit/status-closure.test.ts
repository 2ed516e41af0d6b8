// `shardeck status` reads; what loads before it runs is only what reading needs (issue 45: its start
// against a bare script's). None of a change's code: the guard, a right-sizing's run, the red
// index's copy and its recovery steps load only in the commands that change something.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleOutputs, staticClosure } from '../../dev/lib/bundle-closure.mjs';

const root = path.join(__dirname, '../..');
let outs: Awaited<ReturnType<typeof bundleOutputs>>;

beforeAll(async () => {
  outs = await bundleOutputs(root);
}, 60_000);

const CHANGE_CODE = [
  'src/services/guard.ts',
  'src/services/shrink.ts',
  'src/services/red-copy.ts',
  'src/services/recovery-runner.ts',
  'src/cluster/mutations.ts',
];

describe('what status loads before it runs', () => {
  it('none of the code that changes something, but what says a right-sizing or a copy was left', () => {
    const { sources } = staticClosure(outs, 'src/commands/status.ts');
    expect(CHANGE_CODE.filter((s) => s in sources)).toEqual([]);
    expect(Object.keys(sources)).toEqual(expect.arrayContaining(['src/services/shrink-left.ts', 'src/services/kept-copies.ts']));
  });

  it('the shrink command does load its run (the list above is not empty by a wrong name)', () => {
    const { sources } = staticClosure(outs, 'src/commands/shrink.ts');
    expect(Object.keys(sources)).toEqual(expect.arrayContaining(['src/services/guard.ts', 'src/services/shrink.ts']));
  });
});
