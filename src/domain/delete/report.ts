// After the delete: what was previewed, deleted and still matches; and a delete whose task died
// with its node, read back from its audit record.
import { goneTaskLines } from '../inspect/gone-task';
import type { Query } from './query';
import type { TaskProgress } from './task';

export interface DeleteReport {
  previewed: number;
  deleted: number;
  stillMatching: number;
  ok: boolean;
  lines: string[];
}

/**
 * After the delete: what was previewed, what the task deleted, and what the same query still
 * matches (documents written after the preview are beyond max_docs and stay).
 */
export function deleteReport(previewed: number, task: TaskProgress, stillMatching: number): DeleteReport {
  const ok = task.completed && task.failures.length === 0 && !task.cancelled && task.deleted === previewed;
  const lines = [`deleted ${task.deleted} of ${previewed} previewed; the query still matches ${stillMatching}`];
  if (task.versionConflicts) lines.push(`${task.versionConflicts} documents changed while it ran (version conflicts) and were not deleted`);
  if (task.cancelled) lines.push('the task was cancelled: what it deleted before stays deleted');
  for (const f of task.failures.slice(0, 3)) lines.push(`failure: ${f}`);
  if (stillMatching > 0 && task.deleted === previewed)
    lines.push(
      `${stillMatching} matching documents were not deleted: max_docs capped the delete at the previewed count (they were written after the preview or not seen); preview again to delete them`,
    );
  if (task.deleted > 0) lines.push('the disk is not freed until the segments merge: shardeck forcemerge <index> --expunge-deletes');
  return { previewed, deleted: task.deleted, stillMatching, ok, lines };
}

/** A delete as its audit record tells it: where, which query, how many at most, which task. */
export interface RecordedDelete {
  index: string;
  query: Query;
  previewed: number;
  /** When it was sent (the audit's time); empty when the session that sent it tells it. */
  time: string;
}

/** The delete-by-query an audit record describes, or null for any other request. */
export function recordedDelete(r: { time: string; request?: { method: string; path: string; body?: unknown } }): RecordedDelete | null {
  if (!r.request) return null;
  const m = /^\/([^/]+)\/_delete_by_query$/.exec(r.request.path);
  const body = r.request.body as { query?: Query; max_docs?: number } | undefined;
  if (r.request.method !== 'POST' || !m || !body?.query || typeof body.max_docs !== 'number') return null;
  return { index: decodeURIComponent(m[1]), query: body.query, previewed: body.max_docs, time: r.time };
}

/**
 * A delete whose task is gone (the node restarted while it ran): what it deleted, counted from
 * the recorded query. Exact only if nothing matching was written since.
 */
export function lostDeleteReport(
  d: Pick<RecordedDelete, 'index' | 'previewed' | 'time'>,
  stillMatching: number,
): { previewed: number; stillMatching: number; deleted: number; lines: string[] } {
  const deleted = Math.max(0, d.previewed - stillMatching);
  return {
    previewed: d.previewed,
    stillMatching,
    deleted,
    lines: goneTaskLines({
      verb: 'delete',
      index: d.index,
      sentAt: d.time,
      did: `previewed ${d.previewed}, the same query matches ${stillMatching} now: about ${deleted} were deleted (matching documents written since blur this)`,
      left: stillMatching > 0,
      again: `shardeck delete-by-query ${d.index} ... --dry-run`,
      nothingLeft: 'nothing of the previewed query is left',
    }),
  };
}

/**
 * The report of a delete whose task died with its node while the session that sent it followed
 * it: counted from the query like a lost one, never ok (it did not finish; what it did is inferred).
 */
export function goneDeleteReport(index: string, previewed: number, stillMatching: number): DeleteReport {
  return { ...lostDeleteReport({ index, previewed, time: '' }, stillMatching), ok: false };
}
