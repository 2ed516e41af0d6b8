// The guarded delete request and the preview's share.
import { describe, expect, it } from 'vitest';
import { deleteByQueryPlan, matchShare } from '../../../src/domain/delete/plan';
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
  });
  it('share of the index', () => {
    expect(matchShare(25, 100)).toBe(25);
    expect(matchShare(0, 0)).toBe(0);
  });
});
