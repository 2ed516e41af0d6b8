// The console's close / open / delete of whole indices as a machine, with plain values: the
// preview read first, y sends a close, a delete only on the count and project names typed (y is
// said, not obeyed), a refusal or nothing to do ends without a request.
import { describe, expect, it } from 'vitest';
import { indexActionPlan, indexFactParts, parseIndexFacts } from '../../src/domain/maintenance/index-admin';
import { indexAdminMachine, indexFactText, typedAsk, type IndexAdminPreview } from '../../src/domain/wizards/index-admin';
import type { IndexAction } from '../../src/domain/maintenance/index-admin';

const facts = parseIndexFacts(
  [
    { index: 'logs-1', uuid: 'u1', status: 'open', health: 'green', 'docs.count': '1', 'store.size': '10' },
    { index: 'service_v9_b', uuid: 'u2', status: 'open', health: 'green', 'docs.count': '3', 'store.size': '100' },
  ],
  {},
  () => null,
);
const preview = (action: IndexAction): IndexAdminPreview => ({
  facts,
  already: [],
  plan: indexActionPlan(action, facts, 'logs-1,service_v9_b'),
  snapshotsRead: true,
});

function run(action: IndexAction, ...events: Parameters<ReturnType<typeof indexAdminMachine>['step']>[1][]) {
  const m = indexAdminMachine(action, 'logs-1,service_v9_b');
  let { state, effects } = m.init();
  const all = [...effects];
  for (const e of events) {
    ({ state, effects } = m.step(state, e));
    all.push(...effects);
  }
  return { state: state, effects: all };
}

describe('index admin wizard', () => {
  it("one index's facts, as the command lists them and the console's review shows them: one order, the cluster's text inert", () => {
    const hostile = { index: 'service_v9_\u001b[2Jx', project: 'Alpha\u0007' };
    const f = { ...facts[0], ...hostile, docs: 1234, bytes: 2048, lastWrite: '2026-11-20T10:05:33.120Z' };
    expect(indexFactParts(f)).toEqual([
      { text: 'open' },
      { text: '1,234 docs' },
      { text: '2.00kb' },
      { text: 'no snapshot', warn: true },
      { text: 'project Alpha\\u0007' },
      { text: 'last write 2026-11-20 10:05' },
    ]);
    expect(indexFactText({ ...f, newestSnapshot: 'nightly:snap-1', project: null, lastWrite: null })).toBe(
      'service_v9_\\u001b[2Jx · open · 1,234 docs · 2.00kb · snapshot nightly:snap-1 · last write not known',
    );
  });

  it('the summary names a list given as a list, and a pattern with what it matched', () => {
    expect(indexActionPlan('close', facts, 'service_v9_b, logs-1').summary).toBe(
      'close 2 indices: logs-1, service_v9_b (searches and writes refused until opened; data kept)',
    );
    expect(indexActionPlan('open', facts, 'logs-*,service_v9_b').summary).toBe(
      'open 2 indices that "logs-*,service_v9_b" matched: logs-1, service_v9_b',
    );
    expect(indexActionPlan('delete', facts.slice(0, 1), 'logs-1,logs-2').summary).toBe(
      'delete 1 index that "logs-1,logs-2" matched: logs-1 (documents and all)',
    );
  });

  it('opens by reading the preview of exactly the names it was given', () => {
    expect(run('close').effects).toEqual([{ type: 'preview', action: 'close', target: 'logs-1,service_v9_b' }]);
  });

  it('close: y sends the one plan naming each index', () => {
    const { state, effects } = run(
      'close',
      { type: 'previewed', preview: preview('close') },
      { type: 'confirm', confirmation: { by: 'key' } },
    );
    expect(state.phase).toBe('applying');
    expect(effects[1]).toMatchObject({ type: 'mutate', plans: [{ method: 'POST', path: '/logs-1,service_v9_b/_close' }] });
  });

  it('delete: y is refused with what to type; a wrong count sends nothing; the count and the project name send', () => {
    const opened = run('delete', { type: 'previewed', preview: preview('delete') }, { type: 'confirm', confirmation: { by: 'key' } });
    expect(opened.state).toMatchObject({ phase: 'review', error: expect.stringContaining('type "2 service_v9_b"') });
    expect(opened.effects).toHaveLength(1);
    const type = (text: string) => [...text].map((c) => ({ type: 'line' as const, edit: { type: 'insert' as const, text: c } }));
    const wrong = run('delete', { type: 'previewed', preview: preview('delete') }, ...type('2'), { type: 'submit' });
    expect(wrong.state).toMatchObject({ phase: 'review', error: expect.stringContaining('nothing was sent') });
    expect(wrong.effects).toHaveLength(1);
    const right = run('delete', { type: 'previewed', preview: preview('delete') }, ...type('2 service_v9_b'), { type: 'submit' });
    expect(right.state.phase).toBe('applying');
    expect(right.effects[1]).toMatchObject({
      type: 'mutate',
      plans: [{ method: 'DELETE', path: '/logs-1,service_v9_b' }],
      confirmation: { by: 'typed', text: '2 service_v9_b' },
    });
  });

  it('a refusal or nothing to do ends with the reason and no request', () => {
    expect(run('close', { type: 'rejected', message: 'no index matches' }).state).toMatchObject({ phase: 'nothing' });
    const none = run('open', { type: 'previewed', preview: { ...preview('open'), plan: null, already: ['logs-1', 'service_v9_b'] } });
    expect(none.state).toMatchObject({ phase: 'nothing', message: 'nothing to open: logs-1, service_v9_b already open' });
    expect(none.effects).toHaveLength(1);
    expect(indexAdminMachine('close', '').init().state).toMatchObject({ phase: 'nothing' });
  });

  it('what a delete asks to be typed, in words', () => {
    expect(typedAsk(preview('delete').plan!)).toBe("type 2, then the project index's name (service_v9_b), to delete: ");
    expect(typedAsk(preview('close').plan!)).toBe('');
  });
});
