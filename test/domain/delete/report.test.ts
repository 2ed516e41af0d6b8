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
