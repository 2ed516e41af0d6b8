// After the delete, and a delete whose task died with its node.
import { describe, expect, it } from 'vitest';
import { deleteReport, lostDeleteReport, recordedDelete } from '../../../src/domain/delete/report';
import { parseTask } from '../../../src/domain/delete/task';
import { finished } from './fixtures';

describe('report', () => {
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
});

describe('a delete whose task died with its node', () => {
  const record = {
    time: '2026-11-22T10:00:00.000Z',
    request: {
      method: 'POST',
      path: '/service_v9_alpha/_delete_by_query',
      body: { max_docs: 1700, query: { term: { 'assoc:sources': 'src-crm' } } },
    },
  };
  it('is read back from its audit record; other requests are not deletes', () => {
    expect(recordedDelete(record)).toEqual({
      index: 'service_v9_alpha',
      query: { term: { 'assoc:sources': 'src-crm' } },
      previewed: 1700,
      time: record.time,
    });
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
});

describe('the report, line by line', () => {
  const DISK = 'the disk is not freed until the segments merge: shardeck forcemerge <index> --expunge-deletes';
  const task = (patch: Record<string, unknown>, response: Record<string, unknown> = {}) =>
    parseTask('n:42', { ...finished, ...patch, response: { ...finished.response, ...response } });

  it('all previewed deleted, nothing left: the count and the disk', () => {
    expect(deleteReport(10, task({}), 0)).toEqual({
      previewed: 10,
      deleted: 10,
      stillMatching: 0,
      ok: true,
      lines: ['deleted 10 of 10 previewed; the query still matches 0', DISK],
    });
  });

  it('nothing deleted: no word about the disk', () => {
    expect(deleteReport(0, task({}, { total: 0, deleted: 0 }), 0)).toMatchObject({
      ok: true,
      lines: ['deleted 0 of 0 previewed; the query still matches 0'],
    });
  });

  it('version conflicts: said with their count; fewer deleted than previewed is not the max_docs cap', () => {
    expect(deleteReport(10, task({}, { deleted: 8, version_conflicts: 2 }), 2)).toEqual({
      previewed: 10,
      deleted: 8,
      stillMatching: 2,
      ok: false,
      lines: [
        'deleted 8 of 10 previewed; the query still matches 2',
        '2 documents changed while it ran (version conflicts) and were not deleted',
        DISK,
      ],
    });
  });

  it('documents written after the preview: the max_docs cap, said once, with its count', () => {
    expect(deleteReport(10, task({}), 3).lines).toEqual([
      'deleted 10 of 10 previewed; the query still matches 3',
      '3 matching documents were not deleted: max_docs capped the delete at the previewed count (they were written after the preview or not seen); preview again to delete them',
      DISK,
    ]);
  });

  it('a cancelled task: not ok, and what it deleted stays deleted', () => {
    const r = deleteReport(10, task({}, { deleted: 4, canceled: 'by user request' }), 6);
    expect(r.ok).toBe(false);
    expect(r.lines).toEqual([
      'deleted 4 of 10 previewed; the query still matches 6',
      'the task was cancelled: what it deleted before stays deleted',
      DISK,
    ]);
  });

  it('an unfinished task is not ok, even with every previewed document gone', () => {
    expect(deleteReport(10, task({ completed: false }), 0).ok).toBe(false);
  });

  it('at most three failures are listed', () => {
    const failures = ['a', 'b', 'c', 'd', 'e'].map((reason) => ({ cause: { reason } }));
    expect(deleteReport(10, task({}, { failures }), 0).lines.filter((l) => l.startsWith('failure: '))).toEqual([
      'failure: a',
      'failure: b',
      'failure: c',
    ]);
  });
});

describe('which audit records are deletes', () => {
  const body = { max_docs: 5, query: { match_all: {} } };
  const rec = (request?: { method: string; path: string; body?: unknown }) => ({ time: 't', request });
  it('only a POST to /<index>/_delete_by_query with a query and a max_docs', () => {
    expect(recordedDelete(rec())).toBeNull();
    expect(recordedDelete(rec({ method: 'POST', path: '/a%2Cb/_delete_by_query', body }))).toMatchObject({ index: 'a,b', previewed: 5 });
    expect(recordedDelete(rec({ method: 'GET', path: '/a/_delete_by_query', body }))).toBeNull();
    expect(recordedDelete(rec({ method: 'POST', path: '/a/_forcemerge', body }))).toBeNull();
    expect(recordedDelete(rec({ method: 'POST', path: '/a/b/_delete_by_query', body }))).toBeNull();
    expect(recordedDelete(rec({ method: 'POST', path: '/a/_delete_by_query/x', body }))).toBeNull();
    expect(recordedDelete(rec({ method: 'POST', path: '/a/_delete_by_query' }))).toBeNull();
    expect(recordedDelete(rec({ method: 'POST', path: '/a/_delete_by_query', body: { max_docs: 5 } }))).toBeNull();
    expect(recordedDelete(rec({ method: 'POST', path: '/a/_delete_by_query', body: { query: body.query, max_docs: '5' } }))).toBeNull();
  });

  it('the lost delete, in its words', () => {
    const d = recordedDelete({ time: '2026-11-22T10:00:00.000Z', request: { method: 'POST', path: '/logs/_delete_by_query', body } })!;
    expect(lostDeleteReport(d, 7)).toEqual({
      previewed: 5,
      stillMatching: 7,
      deleted: 0,
      lines: [
        'the task is gone (the node restarted while it ran); its delete of logs was sent at 2026-11-22T10:00:00.000Z',
        'previewed 5, the same query matches 7 now: about 0 were deleted (matching documents written since blur this)',
        'to delete the rest, preview again: shardeck delete-by-query logs ... --dry-run',
      ],
    });
  });
});
