// Query-before-delete and force merge: the preview (exact count, a page of samples, the index
// total), following a task to its end, and the disk facts a merge is judged on. Reads go through
// the facade (cluster/api.ts); the one change here, the refresh, goes through the Guard.
import type { EsApi } from '../cluster/api';
import { diskRows } from '../domain/nodes/disk';
import { refreshPlan, type DeletePreview } from '../domain/delete/plan';
import { type Query } from '../domain/delete/query';
import { type TaskProgress } from '../domain/delete/task';
import { ConnError } from '../cluster/connection';
import type { Confirmation } from '../domain/mutation/confirmation';
import type { TargetOptions } from '../domain/mutation/targets';
import type { MergeFacts } from '../domain/wizards/forcemerge';
import { taskEndResult } from '../domain/timeline';
import type { Guard } from './guard';
import { recordTaskEnd } from './timeline';
import { waitUntil } from './wait';

/**
 * Refreshes through the guard (preview, audit, refused in read-only mode, never retried) with the
 * confirmation of the workflow it is part of. Null when refreshed; otherwise why not, for the
 * caller to say that the count which follows may lag by the index's refresh interval.
 */
export async function refreshIndex(
  guard: Guard,
  expr: string,
  why: string,
  confirmation: Confirmation,
  opts: TargetOptions = {},
): Promise<string | null> {
  const outcome = await guard.execute(refreshPlan(expr, why), confirmation, opts);
  return outcome.ok ? null : `the refresh failed (${outcome.error?.message ?? 'no answer'}; not retried)`;
}

/** What a count read without a refresh may miss, in the operator's words. */
export async function countLagNote(es: EsApi, expr: string, reason: string): Promise<string> {
  const interval = await es.refreshInterval(expr).catch(() => null);
  return `${reason}: the count may lag by the index's refresh interval (${interval ?? 'index.refresh_interval, 1s by default'})`;
}

/** The same query as a count and as a page of samples (oldest first), and the index's total. */
export async function previewDelete(es: EsApi, expr: string, query: Query, pageSize = 10, from = 0): Promise<DeletePreview> {
  const [matching, indexTotal, samples] = await Promise.all([
    es.count(expr, query),
    es.count(expr, { match_all: {} }),
    es.samples(expr, query, pageSize, from),
  ]);
  return { matching, indexTotal, samples };
}

/**
 * Followed to its end; lost (no answer for lostAfterMs); or gone: the node answers again but knows
 * the task no more and stored no result for it (the node restarted while it ran).
 */
type Followed = { ok: true; progress: TaskProgress } | { ok: false; lost: string; last?: TaskProgress; gone?: true };

/** What the timeline says of a task that died with its node (`shardeck tasks ID` says the same). */
export const GONE_TASK = 'the node knows the task no more (it died with its node)';

/**
 * How long a task's status may go unread before it is reported lost: long enough for its node to
 * restart (a restart is waited through and the task's end learned after it).
 */
export const TASK_LOST_AFTER_MS = Number(process.env.SHARDECK_TASK_LOST_AFTER_MS) || 180_000;

/**
 * Polls a task until it completes, calling onProgress on each read. A failed read is not retried
 * blindly: after `lostAfterMs` without an answer the task is reported lost (the node may be down);
 * a 404 once the node answers again ends it at once as gone (a finished task's result is kept in
 * .tasks and read like a running one's).
 */
export async function followTask(
  es: EsApi,
  id: string,
  onProgress: (p: TaskProgress) => void,
  /** timelineUrl: the cluster (no credentials) whose timeline gets the task's end, once. */
  opts: { intervalMs?: number; lostAfterMs?: number; timelineUrl?: string } = {},
): Promise<Followed> {
  const interval = opts.intervalMs ?? 500;
  const lostAfter = opts.lostAfterMs ?? TASK_LOST_AFTER_MS;
  let last: TaskProgress | undefined;
  let failingSince: number | null = null;
  const step = async (): Promise<{ end?: Followed; failed?: boolean }> => {
    try {
      last = await es.task(id);
      failingSince = null;
      onProgress(last);
      if (last.completed) return { end: { ok: true, progress: last } };
      // Instead of sleeping: the node answers the moment the task ends, so the end is seen at once.
      const done = await es.taskEnd(id, interval);
      if (!done) return {};
      onProgress(done);
      return { end: { ok: true, progress: done } };
    } catch (e) {
      if (e instanceof ConnError && e.status === 404) return { end: { ok: false, lost: GONE_TASK, last, gone: true } };
      failingSince ??= Date.now();
      if (Date.now() - failingSince >= lostAfter) return { end: { ok: false, lost: (e as Error).message, last } };
      return { failed: true };
    }
  };
  // A read that failed waits an interval before the next; a running task was already waited on.
  const { value } = await waitUntil(step, (r) => r.end !== undefined, {
    timeoutMs: Infinity,
    intervalMs: (r) => (r.failed ? interval : 0),
  });
  const end = value.end!;
  if (opts.timelineUrl) {
    if (end.ok) recordTaskEnd(opts.timelineUrl, id, taskEndResult(end.progress), end.progress.runningMillis);
    else recordTaskEnd(opts.timelineUrl, id, `lost: ${end.lost}`);
  }
  return end;
}

/**
 * After its node restarted, a target's primaries may still be recovering: waits (reading only, up
 * to a minute) until it is not red, so what is read back counts what the task did (or fails as before).
 */
export async function untilNotRed(es: EsApi, target: string): Promise<void> {
  await waitUntil(
    () => es.health(target).catch(() => null),
    (h) => h !== null && h.status !== 'red',
    { timeoutMs: 60_000, intervalMs: 500 },
  );
}

/** docs.deleted and store size of the matched indices, and each node's disk against the watermarks. */
export async function mergeFacts(es: EsApi, indices: string[]): Promise<MergeFacts> {
  const [all, allocation, settings] = await Promise.all([es.data('indices'), es.data('allocation'), es.data('settings')]);
  const wanted = new Set(indices);
  return { indices: all.filter((i) => wanted.has(i.name)), disks: diskRows(allocation, settings.watermarks) };
}

/** Waits (reading only) until no lease holds deleted documents back, up to `timeoutMs`; true when clear. */
export async function waitForLeases(es: EsApi, expr: string, timeoutMs = 60_000): Promise<boolean> {
  return (
    await waitUntil(
      () => es.retainingShards(expr),
      (n) => n === 0,
      { timeoutMs, intervalMs: 1000 },
    )
  ).met;
}

/**
 * Facts after a merge. Elasticsearch caches store sizes for index.store.stats_refresh_interval
 * (10 s), and for a moment after the merge the old segments are still on disk beside the merged
 * one (a size larger than before was seen). So this reads until every index that had deleted
 * documents is smaller than `baseline` (read just before the merge was sent, after the flush: the
 * flush alone changes the sizes a little) or `staleMs` has passed, when any cache taken before the
 * merge ended is gone; then the last read is the answer, whatever it says.
 */
export async function mergeFactsAfter(es: EsApi, baseline: MergeFacts, indices: string[], staleMs = 11_000): Promise<MergeFacts> {
  const shrunk = (after: MergeFacts) =>
    baseline.indices.every(
      (b) => b.docsDeleted === 0 || (after.indices.find((a) => a.name === b.name)?.storeBytes ?? Infinity) < b.storeBytes,
    );
  return (await waitUntil(() => mergeFacts(es, indices), shrunk, { timeoutMs: staleMs, intervalMs: 1000 })).value;
}
