// A wizard's request preview shows the curl line whole at 80 columns (issue 23): read off the
// screen, the box's lines join back into exactly the line the operator would run, however long.
import React from 'react';
import { render } from 'ink';
import { expect, it } from 'vitest';
import { buildPreview } from '../../src/domain/mutation/preview';
import type { MutationPlan } from '../../src/domain/mutation/plan';
import { RequestPreview } from '../../src/ui/components/RequestPreview';
import { FakeStdin, FakeStdout } from '../helpers/fake-terminal';
import { tick } from './harness';

const plan: MutationPlan = {
  method: 'PUT',
  path: `/${Array.from({ length: 6 }, (_, i) => `service_v9_${'x'.repeat(20)}_${i}`).join(',')}/_settings`,
  querystring: {},
  body: { 'index.blocks.read_only_allow_delete': null },
  risk: 'reversible',
  target: 'six indices',
  summary: 'remove the flood-stage read-only block (index.blocks.read_only_allow_delete) of six indices',
};

it('the curl line is whole on an 80-column screen, every character kept, nothing past the box', async () => {
  const preview = buildPreview(plan, { url: 'https://storage-1.example:9200', user: 'elastic' });
  expect(preview.curl.length).toBeGreaterThan(200);
  const stdout = new FakeStdout(80, 23);
  const app = render(<RequestPreview previews={[preview]} />, {
    stdout: stdout as never,
    stdin: new FakeStdin() as never,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  await tick();
  const rows = stdout.last.split('\n');
  app.unmount();
  expect(rows.every((r) => [...r].length <= 80)).toBe(true);
  const inner = rows.filter((r) => r.startsWith('│')).map((r) => r.slice(2, -2));
  const at = inner.findIndex((r) => r.startsWith('equivalent: curl'));
  expect(at).toBeGreaterThan(0);
  // The box's inner width is 76: every row of the curl line but the last is full.
  const curlRows = inner.slice(at);
  expect(curlRows.join('').trimEnd()).toBe(`equivalent: ${preview.curl}`);
  expect(curlRows.slice(0, -1).every((r) => r.length === 76)).toBe(true);
});
