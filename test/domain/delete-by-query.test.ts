// Pure parts of query-before-delete and force merge, with plain values.
import { describe, expect, it } from 'vitest';
import {
  deleteByQueryPlan,
  deleteReport,
  forcemergePlan,
  jsonErrorOffset,
  judgeMergeSpace,
  lineColumn,
  lostDeleteReport,
  matchShare,
  parseExpected,
  parseOlderThan,
  parseQueryBody,
  parseTask,
  progressLine,
  recordedDelete,
  sourceQuery,
  taskIdOf,
} from '../../src/domain/delete-by-query';
import { confirmationNeeded, confirmationSatisfies } from '../../src/domain/mutation';

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);

describe('older-than', () => {
  it('resolves relative ages to an absolute instant before now', () => {
    expect(parseOlderThan('90d', NOW)).toEqual({ ok: true, value: '2026-08-24T08:00:00.000Z' });
    expect(parseOlderThan('2w', NOW)).toEqual({ ok: true, value: '2026-11-08T08:00:00.000Z' });
    expect(parseOlderThan('36h', NOW)).toEqual({ ok: true, value: '2026-11-20T20:00:00.000Z' });
  });
  it('takes ISO dates (date-only is midnight UTC) and times with a zone', () => {
    expect(parseOlderThan('2026-01-31', NOW)).toEqual({ ok: true, value: '2026-01-31T00:00:00.000Z' });
    expect(parseOlderThan('2026-01-31T12:30:00+02:00', NOW)).toEqual({ ok: true, value: '2026-01-31T10:30:00.000Z' });
  });
  it('refuses junk, zone-less times, zero ages and future dates with one sentence', () => {
    for (const bad of ['ninety days', '90', '2026-01-31T12:00:00', '2026-13-45', '0d', '2027-01-01']) {
      const r = parseOlderThan(bad, NOW);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.error).toContain(`"${bad}"`);
    }
  });
});

describe('queries', () => {
  it('source is a term on assoc:sources', () => {
    expect(sourceQuery('src-crm')).toEqual({ ok: true, value: { term: { 'assoc:sources': 'src-crm' } } });
    expect(sourceQuery(' ').ok).toBe(false);
  });
  it('a logged body with a top-level query works as-is; other keys are named as ignored', () => {
    const r = parseQueryBody('{"query":{"match_all":{}},"size":5}', 'q.json');
    expect(r).toEqual({ ok: true, value: { query: { match_all: {} }, ignored: ['size'] } });
  });
  it('a body without "query", or with an empty one, is refused', () => {
    const r = parseQueryBody('{"term":{"a":1}}', 'q.json');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/has no top-level "query"/);
    expect(parseQueryBody('{"query":{}}', 'q.json').ok).toBe(false);
    expect(parseQueryBody('[1]', 'q.json').ok).toBe(false);
  });
  it('invalid JSON names the line and column, also where V8 gives no position', () => {
    const cases: [string, number, number][] = [
      ['{\n  "query": {\n    "term": }\n}', 3, 13], // unexpected token: V8 names no position
      ['{\n  "query": {"a": 1,}\n}', 2, 20],
      ['{"query": tru}', 1, 14],
      ['{"query": {}', 1, 13],
    ];
    for (const [text, line, column] of cases) {
      const r = parseQueryBody(text, 'q.json');
      expect(r.ok, text).toBe(false);
      if (!r.ok) expect(r.error, text).toContain(`line ${line}, column ${column}`);
    }
    expect(jsonErrorOffset('{"a":1}')).toBeNull();
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
  it('--expect is a whole number', () => {
    expect(parseExpected('1,234')).toEqual({ ok: true, value: 1234 });
    expect(parseExpected('12.5').ok).toBe(false);
    expect(parseExpected('-3').ok).toBe(false);
  });
});

describe('plans', () => {
  it('the delete is capped at the previewed count, runs as a task and is confirmed by typing the count', () => {
    const plan = deleteByQueryPlan('service_v9_alpha', { match_all: {} }, 1234, 'abort');
    expect(plan).toMatchObject({
      method: 'POST',
      path: '/service_v9_alpha/_delete_by_query',
      querystring: { wait_for_completion: 'false' },
      body: { query: { match_all: {} }, max_docs: 1234 },
      risk: 'destructive',
    });
    expect(confirmationNeeded(plan)).toEqual({ kind: 'type', expected: '1234' });
    expect(confirmationSatisfies(plan, { by: 'typed', text: 'service_v9_alpha' })).toBe(false);
    expect(confirmationSatisfies(plan, { by: 'typed', text: '1234' })).toBe(true);
    expect(deleteByQueryPlan('a', {}, 1, 'proceed').querystring.conflicts).toBe('proceed');
  });
  it('the merge only expunges deletes, as a task', () => {
    expect(forcemergePlan('service_v9_*')).toMatchObject({ path: '/service_v9_*/_forcemerge', querystring: { only_expunge_deletes: 'true', wait_for_completion: 'false' } });
  });
  it('task ids', () => {
    expect(taskIdOf({ task: 'Q-oVXtTHTbq4TGwRzcGSfw:42' })).toBe('Q-oVXtTHTbq4TGwRzcGSfw:42');
    expect(taskIdOf({ acknowledged: true })).toBeNull();
  });
});

// Shapes as GET _tasks/<id> answered on the real 8.19.21 node with the ported module.
const finished = {
  completed: true,
  task: { node: 'n', id: 42, action: 'indices:data/write/delete/byquery', status: { total: 10, deleted: 10, batches: 1, version_conflicts: 0, throttled_millis: 0, requests_per_second: -1 }, description: 'delete-by-query [v]', running_time_in_nanos: 464822126, cancelled: false },
  response: { total: 10, deleted: 10, batches: 1, version_conflicts: 0, throttled_millis: 0, requests_per_second: -1, failures: [] },
};

describe('progress and report', () => {
  it('parses a finished task and prints one line', () => {
    const p = parseTask('n:42', finished);
    expect(p).toMatchObject({ completed: true, total: 10, deleted: 10, batches: 1, versionConflicts: 0, runningMillis: 465, failures: [] });
    expect(progressLine(p)).toBe('deleted 10 / 10 (100%) · 1 batches · 0 version conflicts · throttled 0.0s');
  });
  it('deleted = previewed is ok; what still matches is reported and explained', () => {
    const p = parseTask('n:42', finished);
    expect(deleteReport(10, p, 0).ok).toBe(true);
    const r = deleteReport(10, p, 1);
    expect(r.ok).toBe(true);
    expect(r.lines.join('\n')).toMatch(/still matches 1[\s\S]*max_docs capped/);
    expect(deleteReport(12, p, 2).ok).toBe(false);
  });
  it('failures and cancellation make it not ok', () => {
    const failed = parseTask('n:1', { ...finished, response: { ...finished.response, failures: [{ cause: { reason: 'boom' } }] } });
    expect(deleteReport(10, failed, 0)).toMatchObject({ ok: false });
    expect(deleteReport(10, failed, 0).lines).toContain('failure: boom');
  });
  it('share of the index', () => {
    expect(matchShare(25, 100)).toBe(25);
    expect(matchShare(0, 0)).toBe(0);
  });
});

describe('merge space', () => {
  it('refuses past the high watermark, warns when the largest index exceeds the headroom', () => {
    const t = [{ index: 'a', docsDeleted: 5, storeBytes: 1000 }];
    expect(judgeMergeSpace(t, [{ node: 'n1', level: 'high', headroomToHighBytes: 0 }]).refuse).toMatch(/n1 is past the high disk watermark/);
    expect(judgeMergeSpace(t, [{ node: 'n1', level: 'low', headroomToHighBytes: 500 }])).toEqual({ warnings: [expect.stringMatching(/n1 has less room/)] });
    expect(judgeMergeSpace(t, [{ node: 'n1', level: 'ok', headroomToHighBytes: 5000 }])).toEqual({ warnings: [] });
  });
});

describe('a delete whose task died with its node', () => {
  const record = {
    time: '2026-11-22T10:00:00.000Z',
    request: { method: 'POST', path: '/service_v9_alpha/_delete_by_query', body: { max_docs: 1700, query: { term: { 'assoc:sources': 'src-crm' } } } },
  };

  it('is read back from its audit record; other requests are not deletes', () => {
    expect(recordedDelete(record)).toEqual({ index: 'service_v9_alpha', query: { term: { 'assoc:sources': 'src-crm' } }, previewed: 1700, time: record.time });
    expect(recordedDelete({ ...record, request: { method: 'POST', path: '/service_v9_alpha/_forcemerge' } })).toBeNull();
    expect(recordedDelete({ ...record, request: { ...record.request, body: { query: { match_all: {} } } } })).toBeNull();
  });

  it('reports previewed minus still matching as deleted, and how to go on', () => {
    const r = lostDeleteReport(recordedDelete(record)!, 700);
    expect(r).toMatchObject({ previewed: 1700, stillMatching: 700, deleted: 1000 });
    expect(r.lines.join('\n')).toMatch(/about 1000 were deleted/);
    expect(r.lines.join('\n')).toMatch(/preview again: shardeck delete-by-query service_v9_alpha/);
    expect(lostDeleteReport(recordedDelete(record)!, 0).lines.at(-1)).toBe('nothing of the previewed query is left');
  });

  it('a starting throttle goes into the delete request', () => {
    const q = { match_all: {} };
    expect(deleteByQueryPlan('i', q, 5, 'abort', 200).querystring).toEqual({ wait_for_completion: 'false', requests_per_second: '200' });
    expect(deleteByQueryPlan('i', q, 5, 'abort').querystring).toEqual({ wait_for_completion: 'false' });
  });
});
