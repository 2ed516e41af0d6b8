// The guarded requests of a delete-by-query: the delete capped by max_docs at the previewed count,
// the refresh a cancelled delete needs, and what the preview shows before anything is sent.
import type { MutationPlan } from '../mutation/plan';
import type { Query } from './query';
import type { TaskProgress } from './task';

export type ConflictsPolicy = 'abort' | 'proceed';

export const CONFLICTS_LINE: Record<ConflictsPolicy, string> = {
  abort: 'conflicts=abort (default): a document changed while the delete runs stops it there; what was deleted stays deleted.',
  proceed: 'conflicts=proceed: documents changed while the delete runs are skipped and counted as version conflicts.',
};

/**
 * The delete, capped at the previewed count so it can never delete more than was shown; it runs
 * as a task. The operator confirms by typing that count. requestsPerSecond: a starting throttle
 * (documents per second); -1 or absent for none.
 */
export function deleteByQueryPlan(
  index: string,
  query: Query,
  previewed: number,
  conflicts: ConflictsPolicy,
  requestsPerSecond = -1,
): MutationPlan {
  return {
    method: 'POST',
    path: `/${encodeURIComponent(index)}/_delete_by_query`,
    querystring: {
      wait_for_completion: 'false',
      ...(conflicts === 'proceed' ? { conflicts: 'proceed' } : {}),
      ...(requestsPerSecond > 0 ? { requests_per_second: String(requestsPerSecond) } : {}),
    },
    body: { query, max_docs: previewed },
    risk: 'destructive',
    target: index,
    confirmText: String(previewed),
    summary: `delete at most ${previewed} documents of ${index} matching the previewed query`,
  };
}

/** The refresh's reason in the CLI's and the wizard's delete (previewed and sent with the same summary). */
export const AFTER_DELETE = 'after a cancelled or failed delete';

/**
 * A delete sent with refresh=true refreshes when its task ends, except when it was cancelled or
 * failed: only then does the count afterwards need a refresh of its own (failures too, to be safe).
 */
export function deleteSkippedItsRefresh(p: Pick<TaskProgress, 'cancelled' | 'failures'>): boolean {
  return p.cancelled || p.failures.length > 0;
}

/**
 * Makes recent deletes visible to the next count. It changes no document, but it is a write to
 * the index (it opens new segments), so it goes through the guard like any other change: shown,
 * audited, refused in read-only mode. `why` names the workflow it belongs to (the audit says it).
 */
export function refreshPlan(expr: string, why: string = AFTER_DELETE): MutationPlan {
  return {
    method: 'POST',
    path: `/${encodeURIComponent(expr)}/_refresh`,
    querystring: { expand_wildcards: 'all' },
    risk: 'reversible',
    target: expr,
    summary: `refresh ${expr} so the count ${why} sees what was deleted`,
  };
}

/** One document of the preview's sample page. */
export interface SampleDoc {
  index: string;
  id: string;
  modifiedAt: string | null;
  sources: string[];
  title: string | null;
}

/** What the delete's query matches before anything is sent. */
export interface DeletePreview {
  /** Exact: _count, not the capped hits.total of a search. */
  matching: number;
  indexTotal: number;
  samples: SampleDoc[];
}

/** Share of the index a query matches, for the preview ("12.5% of 10,000 documents"). */
export function matchShare(matching: number, total: number): number {
  return total > 0 ? (matching / total) * 100 : 0;
}
