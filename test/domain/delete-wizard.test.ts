// The delete and force-merge wizard machines, driven event by event without rendering or a cluster.
import { describe, expect, it } from 'vitest';
import { parseTask, type TaskProgress } from '../../src/domain/delete/task';
import { goneDeleteReport } from '../../src/domain/delete/report';
import type { DiskRow } from '../../src/domain/nodes/disk';
import { confirmationSatisfies } from '../../src/domain/mutation/confirmation';
import type { IndexRow } from '../../src/domain/types';
import {
  cancelTaskPlan,
  choiceOf,
  deleteMachine,
  pageFrom,
  parseRequestsPerSecond,
  projectOfTarget,
  rethrottlePlan,
  type DeleteEffect,
  type DeleteEvent,
  type DeleteState,
  type PreviewFacts,
} from '../../src/domain/wizards/delete';
import { forcemergeMachine, mergeDiskLines, mergeIndexLines, type MergeFacts } from '../../src/domain/wizards/forcemerge';
import { drive } from '../helpers/machines';

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);

const preview: PreviewFacts = {
  matching: 1234,
  indexTotal: 10_000,
  samples: [{ index: 'service_v9_alpha', id: 'a1', modifiedAt: '2025-01-01T00:00:00.000Z', sources: ['src-crm'], title: 'alpha item 1' }],
};

const task = (over: Partial<TaskProgress> = {}): TaskProgress => ({
  ...parseTask('n1:42', { completed: false, task: { status: { total: 1234 } } }),
  ...over,
});

const toReview: DeleteEvent[] = [
  { type: 'edit', field: 'value', value: '90d' },
  { type: 'submit', now: NOW },
  { type: 'previewed', indices: ['service_v9_alpha'], preview },
];

describe('delete wizard: choosing the documents', () => {
  it('older than resolves to the absolute instant it will query, before anything is sent', () => {
    const c = choiceOf({ target: 'x', kind: 'olderThan', value: '90d', conflicts: 'abort', rate: '' }, NOW);
    expect(c).toEqual({
      ok: true,
      value: {
        query: { range: { modified_at: { lt: '2026-08-24T08:00:00.000Z' } } },
        described: 'modified_at older than 2026-08-24T08:00:00.000Z',
        resolvedOlderThan: '2026-08-24T08:00:00.000Z',
      },
    });
    expect(choiceOf({ target: 'x', kind: 'olderThan', value: 'last year', conflicts: 'abort', rate: '' }, NOW)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^older than "last year" is neither an age/),
    });
    expect(choiceOf({ target: 'x', kind: 'source', value: ' src-crm ', conflicts: 'abort', rate: '' }, NOW)).toMatchObject({
      ok: true,
      value: { query: { term: { 'assoc:sources': 'src-crm' } } },
    });
    expect(choiceOf({ target: 'x', kind: 'source', value: '', conflicts: 'abort', rate: '' }, NOW)).toMatchObject({ ok: false });
    expect(choiceOf({ target: 'x', kind: 'file', value: '/tmp/q.json', conflicts: 'abort', rate: '' }, NOW)).toEqual({
      ok: 'file',
      path: '/tmp/q.json',
    });
  });

  it.each(['*', '_all', '.security', ''])('refuses target %j in the form (nothing asked for)', (target) => {
    const { state, effects } = drive(deleteMachine({ target }), [
      { type: 'edit', field: 'value', value: '90d' },
      { type: 'submit', now: NOW },
    ]);
    expect(state).toMatchObject({ phase: 'input', error: expect.any(String) });
    expect(effects).toEqual([]);
  });

  it('a file body is read by the runner and parsed here: invalid JSON names line and column; a body without "query" is refused', () => {
    const m = deleteMachine({ target: 'service_v9_alpha', kind: 'file', value: 'q.json' });
    const bad = drive(m, [
      { type: 'submit', now: NOW },
      { type: 'fileRead', text: '{\n  "query": {\n    "term": }\n}\n' },
    ]);
    expect(bad.effects).toEqual([{ type: 'readFile', path: 'q.json' }]);
    expect(bad.state).toMatchObject({ phase: 'input', error: expect.stringMatching(/q\.json is not valid JSON at line 3, column 13/) });
    const noQuery = drive(m, [
      { type: 'submit', now: NOW },
      { type: 'fileRead', text: '{"term": {"a": 1}}' },
    ]);
    expect(noQuery.state).toMatchObject({ phase: 'input', error: expect.stringMatching(/no top-level "query"/) });
    const unreadable = drive(m, [
      { type: 'submit', now: NOW },
      { type: 'rejected', message: 'cannot read q.json (ENOENT)' },
    ]);
    expect(unreadable.state).toMatchObject({ phase: 'input', error: 'cannot read q.json (ENOENT)' });
    const good = drive(m, [
      { type: 'submit', now: NOW },
      { type: 'fileRead', text: '{"query": {"term": {"assoc:sources": "src-crm"}}, "size": 5}' },
    ]);
    expect(good.state).toMatchObject({
      phase: 'previewing',
      choice: { described: 'the query of q.json (only "query" is used; ignored: size)' },
    });
    expect(good.effects[1]).toEqual({
      type: 'preview',
      target: 'service_v9_alpha',
      query: { term: { 'assoc:sources': 'src-crm' } },
      pageSize: 4,
    });
  });

  it('the resolver refusing the target (unknown index) returns to the form with its sentence', () => {
    const { state } = drive(deleteMachine({ target: 'service_v9_nope' }), [
      ...toReview.slice(0, 2),
      { type: 'rejected', message: 'no index matches "service_v9_nope"' },
    ]);
    expect(state).toMatchObject({ phase: 'input', error: 'no index matches "service_v9_nope"' });
  });

  it('a starting throttle goes into the delete as requests_per_second; a bad one stays in the form', () => {
    const bad = drive(deleteMachine({ target: 'service_v9_alpha', rate: 'fast' }), toReview.slice(0, 2));
    expect(bad.state).toMatchObject({ phase: 'input', error: expect.stringMatching(/^throttle "fast" is not a rate/) });
    expect(bad.effects).toEqual([]);
    const { state } = drive(deleteMachine({ target: 'service_v9_alpha', rate: '100' }), toReview);
    expect(state).toMatchObject({
      phase: 'review',
      plan: { querystring: { wait_for_completion: 'false', requests_per_second: '100', refresh: 'true' } },
    });
    const none = drive(deleteMachine({ target: 'service_v9_alpha' }), toReview);
    expect(none.state).toMatchObject({ phase: 'review' });
    if (none.state.phase !== 'review') throw new Error('no review');
    expect(none.state.plan.querystring).not.toHaveProperty('requests_per_second');
  });

  it('cycles the query kinds (older than -> until, clearing the value) and the conflicts policy', () => {
    const { state } = drive(deleteMachine({ target: 'a', value: '90d' }), [{ type: 'nextKind' }, { type: 'toggleConflicts' }]);
    expect(state).toMatchObject({ phase: 'input', form: { kind: 'until', value: '', conflicts: 'proceed' } });
  });

  it('names the platform project of the target when known', () => {
    expect(projectOfTarget('service_v9_alpha', { alpha: 'Alpha Logistics' })).toBe('Alpha Logistics');
    expect(projectOfTarget('service_v9_alpha', undefined)).toBeUndefined();
    expect(projectOfTarget('other', { alpha: 'Alpha Logistics' })).toBeUndefined();
  });
});

describe('delete wizard: preview and confirmation', () => {
  it('zero matches ends with nothing to do and nothing sent', () => {
    const { state, effects } = drive(deleteMachine({ target: 'service_v9_alpha' }), [
      ...toReview.slice(0, 2),
      { type: 'previewed', indices: ['service_v9_alpha'], preview: { matching: 0, indexTotal: 10, samples: [] } },
    ]);
    expect(state).toMatchObject({ phase: 'nothing', indexTotal: 10 });
    expect(effects.map((f) => f.type)).toEqual(['preview']);
  });

  it('pages through the samples within the matching documents', () => {
    expect(pageFrom(0, -1, 1234)).toBe(0);
    expect(pageFrom(0, 1, 1234)).toBe(4);
    expect(pageFrom(1228, 1, 1234)).toBe(1232);
    expect(pageFrom(1232, 1, 1234)).toBe(1232);
    expect(pageFrom(0, 1, 3)).toBe(0);
    const m = deleteMachine({ target: 'service_v9_alpha' });
    const asked = drive(m, [...toReview, { type: 'page', delta: 1 }]);
    // The shown page does not change until its samples arrive.
    expect(asked.state).toMatchObject({ phase: 'review', from: 0, pending: 4, preview: { samples: preview.samples } });
    const { state, effects } = drive(m, [
      ...toReview,
      { type: 'page', delta: 1 },
      { type: 'samples', from: 4, samples: [] },
      { type: 'page', delta: -1 },
      { type: 'page', delta: 1 },
      { type: 'samples', from: 0, samples: preview.samples },
    ]);
    expect(effects.filter((f) => f.type === 'samples').map((f) => (f as { from: number }).from)).toEqual([4, 0, 4]);
    // The answer for page 0 came after page 4 was asked for again: dropped.
    expect(state).toMatchObject({ phase: 'review', from: 4, pending: 4, preview: { samples: [] } });
  });

  it('a wrong typed count is refused with nothing sent; the right one starts the capped delete', () => {
    const m = deleteMachine({ target: 'service_v9_alpha' });
    const wrong = drive(m, [...toReview, { type: 'typeCount', text: '1243' }, { type: 'confirm' }]);
    expect(wrong.state).toMatchObject({
      phase: 'review',
      typed: '',
      error: expect.stringMatching(/typed "1243", but the preview counted 1234 documents: nothing was sent/),
    });
    expect(wrong.effects.map((f) => f.type)).toEqual(['preview']);
    const empty = drive(m, [...toReview, { type: 'confirm' }]);
    expect(empty.state.phase).toBe('review');

    const right = drive(m, [...toReview, { type: 'typeCount', text: '1,234' }, { type: 'confirm' }]);
    expect(right.state.phase).toBe('starting');
    const start = right.effects.at(-1) as Extract<DeleteEffect, { type: 'start' }>;
    expect(start.plan).toMatchObject({
      method: 'POST',
      path: '/service_v9_alpha/_delete_by_query',
      querystring: { wait_for_completion: 'false', refresh: 'true' },
      body: { query: { range: { modified_at: { lt: '2026-08-24T08:00:00.000Z' } } }, max_docs: 1234 },
      risk: 'destructive',
    });
    expect(start.confirmation).toEqual({ by: 'typed', text: '1234' });
    expect(confirmationSatisfies(start.plan, start.confirmation)).toBe(true);
  });

  it('a pattern deletes only from the indices its preview counted (also after toggling conflicts)', () => {
    const events: DeleteEvent[] = [toReview[0], toReview[1], { type: 'previewed', indices: ['service_v9_b', 'service_v9_a'], preview }];
    const { state } = drive(deleteMachine({ target: 'service_v9_*' }), [...events, { type: 'toggleConflicts' }]);
    expect(state).toMatchObject({
      phase: 'review',
      plan: {
        path: '/service_v9_a,service_v9_b/_delete_by_query',
        target: 'service_v9_*',
        resolved: { expression: 'service_v9_*', indices: ['service_v9_a', 'service_v9_b'] },
      },
    });
  });

  it('conflicts=proceed reaches the plan; Backspace back to the form keeps it', () => {
    const { state } = drive(deleteMachine({ target: 'service_v9_alpha' }), [...toReview, { type: 'toggleConflicts' }]);
    expect(state).toMatchObject({ phase: 'review', form: { conflicts: 'proceed' }, plan: { querystring: { conflicts: 'proceed' } } });
    const back = drive(deleteMachine({ target: 'service_v9_alpha' }), [...toReview, { type: 'toggleConflicts' }, { type: 'back' }]);
    expect(back.state).toMatchObject({ phase: 'input', form: { conflicts: 'proceed', value: '90d' } });
  });
});

describe('delete wizard: the task', () => {
  const started: DeleteEvent[] = [
    ...toReview,
    { type: 'typeCount', text: '1234' },
    { type: 'confirm' },
    { type: 'started', task: 'n1:42' },
  ];

  it('follows the task, then counts again and reports deleted vs previewed vs still matching, offering the merge', () => {
    const { state, effects } = drive(deleteMachine({ target: 'service_v9_alpha' }), [
      ...started,
      { type: 'progress', progress: task({ deleted: 600, batches: 1 }) },
      { type: 'cancel' }, // Esc while the task runs does not end the wizard
      { type: 'finished', progress: task({ completed: true, deleted: 1234, batches: 2 }) },
      { type: 'counted', stillMatching: 3 },
    ]);
    expect(effects.map((f) => f.type)).toEqual(['preview', 'start', 'follow', 'count']);
    expect(state).toMatchObject({
      phase: 'done',
      offerMerge: true,
      report: { previewed: 1234, deleted: 1234, stillMatching: 3, ok: true },
    });
    if (state.phase !== 'done') throw new Error('not done');
    expect(state.report.lines.join('\n')).toMatch(/3 matching documents were not deleted: max_docs capped/);
  });

  it('rethrottle and cancel go out as guarded plans confirmed by a key; the cancelled task is reported', () => {
    const m = deleteMachine({ target: 'service_v9_alpha' });
    const { state, effects } = drive(m, [
      ...started,
      { type: 'editRate', text: '' },
      { type: 'editRate', text: 'abc' },
      { type: 'rethrottle' },
      { type: 'editRate', text: '500' },
      { type: 'rethrottle' },
      { type: 'controlled', result: { summary: 'rethrottle', ok: true, message: 'done (200)' } },
      { type: 'cancelTask' },
      { type: 'cancelTask' }, // once only
      { type: 'finished', progress: task({ completed: true, deleted: 600, cancelled: true }) },
      { type: 'counted', stillMatching: 634 },
    ]);
    const controls = effects.filter((f): f is Extract<DeleteEffect, { type: 'control' }> => f.type === 'control');
    expect(controls.map((c) => `${c.plan.method} ${c.plan.path}?${new URLSearchParams(c.plan.querystring).toString()}`)).toEqual([
      'POST /_delete_by_query/n1%3A42/_rethrottle?requests_per_second=500',
      'POST /_tasks/n1%3A42/_cancel?',
    ]);
    expect(controls.every((c) => c.confirmation.by === 'key' && c.plan.risk === 'reversible')).toBe(true);
    expect(state).toMatchObject({ phase: 'done', report: { ok: false, deleted: 600, stillMatching: 634 } });
    if (state.phase !== 'done') throw new Error('not done');
    expect(state.report.lines).toContain('the task was cancelled: what it deleted before stays deleted');
  });

  it('a bad rate is explained and nothing is sent', () => {
    const { state, effects } = drive(deleteMachine({ target: 'service_v9_alpha' }), [
      ...started,
      { type: 'editRate', text: '0' },
      { type: 'rethrottle' },
    ]);
    expect(effects.filter((f) => f.type === 'control')).toEqual([]);
    expect(state).toMatchObject({ phase: 'running', control: { ok: false, message: expect.stringMatching(/not a rate/) } });
  });

  it('a task cancelled by the operator reads as cancelled once finished (response.canceled, task.cancelled false again)', () => {
    const finished = parseTask('n:156', {
      completed: true,
      task: { cancelled: false, status: { total: 2500, deleted: 1000, canceled: 'by user request' } },
      response: { total: 2500, deleted: 1000, batches: 1, canceled: 'by user request', failures: [] },
    });
    expect(finished).toMatchObject({ completed: true, cancelled: true, deleted: 1000 });
    expect(
      parseTask('n:1', { completed: true, task: { cancelled: false }, response: { total: 5, deleted: 5, failures: [] } }).cancelled,
    ).toBe(false);
  });

  it('parses rates and builds the plans', () => {
    expect(parseRequestsPerSecond('500')).toEqual({ ok: true, value: 500 });
    expect(parseRequestsPerSecond('-1')).toEqual({ ok: true, value: -1 });
    expect(parseRequestsPerSecond('unlimited')).toEqual({ ok: true, value: -1 });
    expect(parseRequestsPerSecond('-5').ok).toBe(false);
    expect(rethrottlePlan('n:1', -1).summary).toMatch(/no throttle/);
    expect(cancelTaskPlan('n:1').summary).toMatch(/what was deleted stays deleted/);
  });

  it('a lost task ends the wizard with the re-attach command and the last progress; a refused start likewise', () => {
    const last = task({ deleted: 100 });
    const lost = drive(deleteMachine({ target: 'service_v9_alpha' }), [
      ...started,
      { type: 'progress', progress: last },
      { type: 'lost', message: 'connection refused' },
    ]);
    expect(lost.state).toMatchObject({
      phase: 'failed',
      message: expect.stringMatching(/lost task n1:42: .* not retried\. .*shardeck tasks n1:42/),
      last,
    });
    const refused = drive(deleteMachine({ target: 'service_v9_alpha' }), [
      ...toReview,
      { type: 'typeCount', text: '1234' },
      { type: 'confirm' },
      { type: 'notStarted', message: 'blocked' },
    ]);
    expect(refused.state).toMatchObject({ phase: 'failed', message: 'blocked' });
  });

  it('a task gone after a node restart: counted from the query after a refresh (the node may still recover its shards), reported not ok, nothing resent', () => {
    const last = task({ deleted: 1000 });
    const { state, effects } = drive(deleteMachine({ target: 'service_v9_alpha' }), [
      ...started,
      { type: 'progress', progress: last },
      { type: 'gone' },
      { type: 'counted', stillMatching: 200 },
    ]);
    expect(effects.map((f) => f.type)).toEqual(['preview', 'start', 'follow', 'count']);
    expect(effects[3]).toMatchObject({ type: 'count', target: 'service_v9_alpha', refresh: true, afterRestart: true });
    expect(state).toMatchObject({
      phase: 'done',
      gone: true,
      final: last,
      offerMerge: true,
      report: { ok: false, previewed: 1234, stillMatching: 200, deleted: 1034 },
    });
    const lines = (state as { report: { lines: string[] } }).report.lines;
    expect(lines[0]).toBe('the task is gone (the node restarted while it ran) and stored no result; it was not resent');
    expect(lines[1]).toMatch(/previewed 1234, the same query matches 200 now: about 1034 were deleted/);
    expect(lines[2]).toMatch(/preview again: shardeck delete-by-query service_v9_alpha/);
    // A task that ends normally is counted without waiting for a recovery.
    const normal = drive(deleteMachine({ target: 'service_v9_alpha' }), [
      ...started,
      { type: 'finished', progress: task({ completed: true, deleted: 1234 }) },
    ]);
    expect(normal.effects[3]).not.toHaveProperty('afterRestart');
  });

  it('Esc before anything is sent cancels the wizard', () => {
    const s: DeleteState = drive(deleteMachine({ target: 'a' }), [...toReview, { type: 'cancel' }]).state;
    expect(s).toEqual({ phase: 'cancelled' });
  });
});

const idx = (name: string, docsDeleted: number, storeBytes: number): IndexRow => ({
  name,
  health: 'green',
  status: 'open',
  primaries: 1,
  replicas: 0,
  docsCount: 10,
  docsDeleted,
  storeBytes,
  priStoreBytes: storeBytes,
  system: false,
});
const disk = (node: string, level: DiskRow['level'], headroomToHighBytes: number): DiskRow => ({
  node,
  usedPercent: 50,
  usedBytes: 500,
  totalBytes: 1000,
  availBytes: 500,
  level,
  marks: { low: 85, high: 90, flood: 95 },
  headroomToHighBytes,
});

describe('force-merge wizard', () => {
  const facts: MergeFacts = { indices: [idx('service_v9_alpha', 1200, 10_000)], disks: [disk('n1', 'ok', 1e9)] };

  it('inspects, asks for a key, merges (waiting for leases) and reports before -> after', () => {
    const m = forcemergeMachine('service_v9_alpha');
    const { state, effects } = drive(m, [
      { type: 'submit' },
      { type: 'inspected', indices: ['service_v9_alpha'], facts, retaining: 2 },
      { type: 'confirm', confirmation: { by: 'key' } },
      { type: 'leasesCleared', cleared: true },
      { type: 'started', task: 'n1:7' },
      { type: 'merged', after: { indices: [idx('service_v9_alpha', 0, 6000)], disks: facts.disks }, failures: [] },
    ]);
    expect(effects.map((f) => f.type)).toEqual(['inspect', 'merge']);
    expect(effects[1]).toMatchObject({
      waitForLeases: true,
      flush: { method: 'POST', path: '/service_v9_alpha/_flush', risk: 'reversible' },
      plan: { path: '/service_v9_alpha/_forcemerge', querystring: { only_expunge_deletes: 'true' } },
    });
    expect(state).toMatchObject({ phase: 'done', task: 'n1:7' });
    if (state.phase !== 'done') throw new Error('not done');
    expect(mergeIndexLines(state.before, state.after)).toEqual([
      { text: 'service_v9_alpha: deleted docs 1,200 -> 0, store 9.77kb -> 5.86kb', tone: 'green' },
    ]);
    expect(mergeDiskLines(state.before)[0]).toMatchObject({
      text: expect.stringMatching(/^node n1: disk 50% used, 954mb before high \(90%\)$/),
      tone: 'green',
    });
  });

  it('a pattern merges (and flushes) only the indices it showed', () => {
    const two: MergeFacts = { indices: [idx('service_v9_a', 5, 100), idx('service_v9_b', 5, 100)], disks: facts.disks };
    const { effects } = drive(forcemergeMachine('service_v9_*'), [
      { type: 'submit' },
      { type: 'inspected', indices: ['service_v9_a', 'service_v9_b'], facts: two, retaining: 0 },
      { type: 'confirm', confirmation: { by: 'key' } },
    ]);
    expect(effects[1]).toMatchObject({
      flush: { path: '/service_v9_a,service_v9_b/_flush', resolved: { expression: 'service_v9_*' } },
      plan: {
        path: '/service_v9_a,service_v9_b/_forcemerge',
        resolved: { expression: 'service_v9_*', indices: ['service_v9_a', 'service_v9_b'] },
      },
    });
  });

  it('refuses past the high watermark: no key sends it', () => {
    const m = forcemergeMachine('service_v9_alpha', true);
    const { state, effects } = drive(m, [
      { type: 'inspected', indices: ['service_v9_alpha'], facts: { ...facts, disks: [disk('n1', 'high', 0)] }, retaining: 0 },
      { type: 'confirm', confirmation: { by: 'key' } },
    ]);
    expect(effects.map((f) => f.type)).toEqual(['inspect']);
    expect(state).toMatchObject({ phase: 'review', refuse: expect.stringMatching(/n1 is past the high disk watermark/) });
  });

  it('warns when a node has less headroom than the largest index, and when nothing is deleted', () => {
    const { state, effects } = drive(forcemergeMachine('a', true), [
      { type: 'inspected', indices: ['a'], facts: { indices: [idx('a', 0, 5000)], disks: [disk('n1', 'ok', 100)] }, retaining: 0 },
      { type: 'confirm', confirmation: { by: 'key' } },
    ]);
    expect(state).toMatchObject({
      phase: 'applying',
      warnings: [expect.stringMatching(/less room before the high watermark/), expect.stringMatching(/reclaim nothing/)],
    });
    // Nothing deleted: no flush, no waiting, only the merge.
    expect(effects[1]).toMatchObject({ type: 'merge', waitForLeases: false });
    expect(effects[1]).not.toHaveProperty('flush');
  });

  it('refuses `*` in the form, and a lost merge task ends with the re-attach command', () => {
    expect(drive(forcemergeMachine('*'), [{ type: 'submit' }]).state).toMatchObject({
      phase: 'input',
      error: expect.stringMatching(/would match every index/),
    });
    expect(forcemergeMachine('*', true).init().effects).toEqual([]);
    const { state } = drive(forcemergeMachine('a', true), [
      { type: 'inspected', indices: ['a'], facts, retaining: 0 },
      { type: 'confirm', confirmation: { by: 'key' } },
      { type: 'started', task: 'n1:9' },
      { type: 'cancel' },
      { type: 'lost', message: 'ECONNREFUSED' },
    ]);
    expect(state).toMatchObject({ phase: 'failed', message: expect.stringMatching(/lost task n1:9: .*shardeck tasks n1:9/) });
  });

  it("a merge task gone with its node (restarted while it ran) ends in the delete's words: gone, not resent, what it did, what to do", () => {
    const merged = (left: number) =>
      drive(forcemergeMachine('a', true), [
        { type: 'inspected', indices: ['a'], facts: { indices: [idx('a', 1200, 10_000)], disks: facts.disks }, retaining: 0 },
        { type: 'confirm', confirmation: { by: 'key' } },
        { type: 'started', task: 'n1:9' },
        { type: 'gone', after: { indices: [idx('a', left, 9000)], disks: facts.disks } },
      ]).state;
    const state = merged(200);
    expect(state).toMatchObject({ phase: 'done', task: 'n1:9', gone: { ok: false } });
    if (state.phase !== 'done' || !state.gone) throw new Error('not gone');
    // One wording for every task that died with its node: the delete's first line, word for word.
    expect(state.gone.lines[0]).toBe(goneDeleteReport('a', 5, 5).lines[0]);
    expect(state.gone.lines).toEqual([
      'the task is gone (the node restarted while it ran) and stored no result; it was not resent',
      'deleted docs in a: 1,200 before, 200 now: about 1,000 were merged away (what it merged before the restart stays)',
      'to merge the rest, preview again: shardeck forcemerge a --expunge-deletes --dry-run',
    ]);
    const none = merged(0);
    if (none.phase !== 'done' || !none.gone) throw new Error('not gone');
    expect(none.gone.lines.at(-1)).toBe('no deleted documents are left in a: nothing to merge');
  });
});
