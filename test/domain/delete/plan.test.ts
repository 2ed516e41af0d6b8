// The guarded delete request and the preview's share.
import { describe, expect, it } from 'vitest';
import { AFTER_DELETE, deleteByQueryPlan, deleteSkippedItsRefresh, matchShare, refreshPlan } from '../../../src/domain/delete/plan';
import { confirmationNeeded, confirmationSatisfies } from '../../../src/domain/mutation/confirmation';

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
  it('a starting throttle goes into the delete request', () => {
    const q = { match_all: {} };
    expect(deleteByQueryPlan('i', q, 5, 'abort', 200).querystring).toEqual({ wait_for_completion: 'false', requests_per_second: '200' });
    expect(deleteByQueryPlan('i', q, 5, 'abort').querystring).toEqual({ wait_for_completion: 'false' });
    expect(deleteByQueryPlan('i', q, 5, 'abort', 0).querystring).toEqual({ wait_for_completion: 'false' });
    expect(deleteByQueryPlan('a b', q, 7, 'abort')).toMatchObject({
      path: '/a%20b/_delete_by_query',
      target: 'a b',
      summary: 'delete at most 7 documents of a b matching the previewed query',
    });
  });
  it('share of the index', () => {
    expect(matchShare(25, 100)).toBe(25);
    expect(matchShare(0, 0)).toBe(0);
  });

  it('the count after a delete needs a refresh of its own only when the delete was cancelled or failed', () => {
    expect(deleteSkippedItsRefresh({ cancelled: false, failures: [] })).toBe(false);
    expect(deleteSkippedItsRefresh({ cancelled: true, failures: [] })).toBe(true);
    expect(deleteSkippedItsRefresh({ cancelled: false, failures: ['x'] })).toBe(true);
    expect(deleteSkippedItsRefresh({ cancelled: true, failures: ['x'] })).toBe(true);
  });
  it('the refresh: a reversible POST of exactly that index, its reason in the summary', () => {
    expect(refreshPlan('logs a')).toEqual({
      method: 'POST',
      path: '/logs%20a/_refresh',
      querystring: { expand_wildcards: 'all' },
      risk: 'reversible',
      target: 'logs a',
      summary: `refresh logs a so the count ${AFTER_DELETE} sees what was deleted`,
    });
    expect(refreshPlan('x', 'of the wizard').summary).toBe('refresh x so the count of the wizard sees what was deleted');
  });
});
