// A wizard's request preview shows the curl line whole at 80 columns (issue 23): read off the
// screen, the box's lines join back into exactly the line the operator would run, however long.
// So does the bar beside the delete-by-query and force-merge reviews, and a review of several
// requests when asked (dialog.curl, `whole`).
import React from 'react';
import { render } from 'ink';
import { expect, it } from 'vitest';
import { buildPreview } from '../../src/domain/mutation/preview';
import type { MutationPlan } from '../../src/domain/mutation/plan';
import { RequestPreview, RequestPreviewBar } from '../../src/ui/components/RequestPreview';
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

async function rowsOf(node: React.ReactElement): Promise<string[]> {
  const stdout = new FakeStdout(80, 23);
  // debug: every frame written whole, also where CI is set (Ink would then write only at unmount).
  const app = render(node, {
    stdout: stdout as never,
    stdin: new FakeStdin() as never,
    patchConsole: false,
    exitOnCtrlC: false,
    debug: true,
  });
  await tick();
  const rows = stdout.last.split('\n');
  app.unmount();
  expect(rows.every((r) => [...r].length <= 80)).toBe(true);
  return rows;
}

it('the curl line is whole on an 80-column screen, every character kept, nothing past the box', async () => {
  const preview = buildPreview(plan, { url: 'https://storage-1.example:9200', user: 'elastic' });
  expect(preview.curl.length).toBeGreaterThan(200);
  const rows = await rowsOf(<RequestPreview previews={[preview]} />);
  const inner = rows.filter((r) => r.startsWith('│')).map((r) => r.slice(2, -2));
  const at = inner.findIndex((r) => r.startsWith('equivalent: curl'));
  expect(at).toBeGreaterThan(0);
  // The box's inner width is 76: every row of the curl line but the last is full.
  const curlRows = inner.slice(at);
  expect(curlRows.join('').trimEnd()).toBe(`equivalent: ${preview.curl}`);
  expect(curlRows.slice(0, -1).every((r) => r.length === 76)).toBe(true);
});

it('the bar beside a review (delete by query, force merge) shows the curl line whole too, every character kept', async () => {
  const preview = buildPreview(plan, { url: 'https://storage-1.example:9200', user: 'elastic' });
  const rows = await rowsOf(<RequestPreviewBar preview={preview} />);
  // A bar on the left: "│ " then 78 columns.
  const inner = rows.filter((r) => r.startsWith('│ ')).map((r) => r.slice(2));
  const at = inner.findIndex((r) => r.startsWith('equivalent: curl'));
  expect(at).toBeGreaterThan(0);
  const curlRows = inner.slice(at);
  expect(curlRows.join('')).toBe(`equivalent: ${preview.curl}`);
  expect(curlRows.slice(0, -1).every((r) => r.length === 78)).toBe(true);
  // The curl line carries the method, path and body: no second, cut copy of them takes rows; the
  // summary before it takes two rows at most (issue 47 item 7: wrapped, not cut at one).
  expect(at).toBeLessThanOrEqual(2);
  expect(inner.slice(0, at).join(' ').replace(/\s+/g, ' ').trim()).toBe(preview.summary);
  expect(inner).toHaveLength(at + curlRows.length);
});

it('a review of several requests shows each curl line whole when asked (whole), cut at the edge otherwise', async () => {
  const conn = { url: 'https://storage-1.example:9200', user: 'elastic' };
  const template: MutationPlan = {
    ...plan,
    path: '/_index_template/service_v9',
    body: { index_patterns: ['service_v9_*'], priority: 100 },
  };
  const previews = [buildPreview(plan, conn), buildPreview(template, conn)];
  const innerOf = (rows: string[]) => rows.filter((r) => r.startsWith('│')).map((r) => r.slice(2, -2));
  const cut = innerOf(await rowsOf(<RequestPreview previews={previews} />));
  expect(cut.filter((r) => r.startsWith('equivalent: curl'))).toHaveLength(2);
  expect(cut.join('\n')).not.toContain(previews[0].curl);
  const whole = innerOf(await rowsOf(<RequestPreview previews={previews} whole />));
  const starts = whole.flatMap((r, i) => (r.startsWith('equivalent: curl') ? [i] : []));
  expect(starts).toHaveLength(2);
  // The first curl runs up to its first row shorter than the box (its last), the second to the end of the box.
  let last = starts[0];
  while (whole[last].trimEnd().length === 76) last++;
  const first = whole.slice(starts[0], last + 1);
  const second = whole.slice(starts[1]);
  expect(first.join('').trimEnd()).toBe(`equivalent: ${previews[0].curl}`);
  expect(second.join('').trimEnd()).toBe(`equivalent: ${previews[1].curl}`);
  expect([...first.slice(0, -1), ...second.slice(0, -1)].every((r) => r.length === 76)).toBe(true);
});
