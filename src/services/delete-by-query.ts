// Query-before-delete and force merge against the cluster: the preview reads (exact count, a page
// of samples, the index total), the task poll, and the disk facts a merge is judged on. Every
// request that changes something goes through the Guard (commands/delete-by-query.ts, forcemerge.ts).
import { getJson } from '../cluster/admin';
import { ConnError } from '../cluster/connection';
import { postRead, refreshIntervalOf } from '../cluster/query-reads';
import { diskRows, type DiskRow } from '../domain/disk';
import { refreshPlan, type DeletePreview, type SampleDoc } from '../domain/delete/plan';
import { MODIFIED_AT, SOURCES, type Query } from '../domain/delete/query';
import { parseTask, type TaskProgress } from '../domain/delete/task';
import { shardsRetainingDeletes } from '../domain/merge';
import type { Confirmation, TargetOptions } from '../domain/mutation';
import type { IndexRow } from '../domain/types';
import type { Guard } from './guard';
import { readResource } from './reads';


function path(expr: string, api: string): string {
  return `/${encodeURIComponent(expr)}/${api}`;
}

/**
 * Refreshes through the guard (preview, audit, refused in read-only mode, never retried) with the
 * confirmation of the workflow it is part of. Null when refreshed; otherwise why not, for the
 * caller to say that the count which follows may lag by the index's refresh interval.
 */
export async function refreshIndex(guard: Guard, expr: string, why: string, confirmation: Confirmation, opts: TargetOptions = {}): Promise<string | null> {
  const outcome = await guard.execute(refreshPlan(expr, why), confirmation, opts);
  return outcome.ok ? null : `the refresh failed (${outcome.error?.message ?? 'no answer'}; not retried)`;
}

/** What a count read without a refresh may miss, in the operator's words. */
export async function countLagNote(guard: Guard, expr: string, reason: string): Promise<string> {
  const interval = await refreshIntervalOf(guard.client, guard.url, expr).catch(() => null);
  return `${reason}: the count may lag by the index's refresh interval (${interval ?? 'index.refresh_interval, 1s by default'})`;
}

export async function countMatching(guard: Guard, expr: string, query: Query): Promise<number> {
  const body = await postRead<{ count: number }>(guard.client, guard.url, path(expr, '_count'), { query });
  return Number(body.count);
}

/** The same query as a count and as a page of samples (oldest first), and the index's total. */
export async function previewDelete(guard: Guard, expr: string, query: Query, pageSize = 10, from = 0): Promise<DeletePreview> {
  const [matching, indexTotal, page] = await Promise.all([
    countMatching(guard, expr, query),
    countMatching(guard, expr, { match_all: {} }),
    postRead<any>(guard.client, guard.url, path(expr, '_search'), {
      query,
      size: pageSize,
      from,
      track_total_hits: false,
      _source: [MODIFIED_AT, SOURCES, 'title'],
      sort: [{ [MODIFIED_AT]: { order: 'asc', unmapped_type: 'date' } }, '_doc'],
    }),
  ]);
  const samples: SampleDoc[] = (page.hits?.hits ?? []).map((h: any) => ({
    index: h._index,
    id: h._id,
    modifiedAt: h._source?.[MODIFIED_AT] ?? null,
    sources: [h._source?.[SOURCES] ?? []].flat().map(String),
    title: h._source?.title ?? null,
  }));
  return { matching, indexTotal, samples };
}

export async function readTask(guard: Guard, id: string): Promise<TaskProgress> {
  return parseTask(id, await getJson(guard.client, guard.url, `/_tasks/${encodeURIComponent(id)}`));
}

/** Running delete-by-query and force-merge tasks, to re-attach to. */
export async function listTasks(guard: Guard): Promise<TaskProgress[]> {
  const body = await getJson<any>(guard.client, guard.url, '/_tasks', { actions: '*byquery,*forcemerge*', detailed: 'true', group_by: 'none' });
  return (body.tasks ?? []).map((t: any) => parseTask(`${t.node}:${t.id}`, { task: t, completed: false }));
}

/**
 * Polls a task until it completes, calling onProgress on each read. A failed read is not retried
 * blindly: after `lostAfterMs` without an answer the task is reported lost (the node may be down).
 */
export async function followTask(
  guard: Guard,
  id: string,
  onProgress: (p: TaskProgress) => void,
  opts: { intervalMs?: number; lostAfterMs?: number } = {},
): Promise<{ ok: true; progress: TaskProgress } | { ok: false; lost: string; last?: TaskProgress }> {
  const interval = opts.intervalMs ?? 500;
  const lostAfter = opts.lostAfterMs ?? 15_000;
  let last: TaskProgress | undefined;
  let failingSince: number | null = null;
  for (;;) {
    try {
      last = await readTask(guard, id);
      failingSince = null;
      onProgress(last);
      if (last.completed) return { ok: true, progress: last };
      // Instead of sleeping: the node answers the moment the task ends, so the end is seen at once.
      const done = await waitForTask(guard, id, interval);
      if (done) {
        onProgress(done);
        return { ok: true, progress: done };
      }
    } catch (e) {
      failingSince ??= Date.now();
      if (Date.now() - failingSince >= lostAfter) return { ok: false, lost: (e as Error).message, last };
      await new Promise((r) => setTimeout(r, interval));
    }
  }
}

/** Waits up to `ms` for the task to end: its final status, or null while it still runs. */
async function waitForTask(guard: Guard, id: string, ms: number): Promise<TaskProgress | null> {
  try {
    const body = await getJson(guard.client, guard.url, `/_tasks/${encodeURIComponent(id)}`, { wait_for_completion: 'true', timeout: `${ms}ms` });
    return parseTask(id, body);
  } catch (e) {
    // 8.19 answers a wait that ran out with a 500 timeout_exception: the task is still running.
    if (e instanceof ConnError && e.esType === 'timeout_exception') return null;
    throw e;
  }
}

export interface MergeFacts {
  indices: IndexRow[];
  disks: DiskRow[];
}

/** docs.deleted and store size of the matched indices, and each node's disk against the watermarks. */
export async function mergeFacts(guard: Guard, indices: string[]): Promise<MergeFacts> {
  const [all, allocation, settings] = await Promise.all([
    readResource(guard.client, guard.url, 'indices'),
    readResource(guard.client, guard.url, 'allocation'),
    readResource(guard.client, guard.url, 'settings'),
  ]);
  const wanted = new Set(indices);
  return { indices: all.data.filter((i) => wanted.has(i.name)), disks: diskRows(allocation.data, settings.data.watermarks) };
}

/** Shard copies of the indices whose retention leases still hold deleted documents back from a merge. */
export async function retainingShards(guard: Guard, expr: string): Promise<number> {
  const stats = await getJson(guard.client, guard.url, `/${encodeURIComponent(expr)}/_stats/docs`, {
    level: 'shards',
    expand_wildcards: 'all',
    filter_path: 'indices.*.shards.*.seq_no.max_seq_no,indices.*.shards.*.retention_leases.leases.retaining_seq_no',
  });
  return shardsRetainingDeletes(stats);
}

/** Waits (reading only) until no lease holds deleted documents back, up to `timeoutMs`; true when clear. */
export async function waitForLeases(guard: Guard, expr: string, timeoutMs = 60_000): Promise<boolean> {
  const start = Date.now();
  while ((await retainingShards(guard, expr)) > 0) {
    if (Date.now() - start > timeoutMs) return false;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return true;
}

/**
 * Facts after a merge. Elasticsearch caches store sizes for index.store.stats_refresh_interval
 * (10 s), so this reads until the sizes changed or that interval passed.
 */
export async function mergeFactsAfter(guard: Guard, before: MergeFacts, indices: string[], staleMs = 11_000): Promise<MergeFacts> {
  const start = Date.now();
  for (;;) {
    const after = await mergeFacts(guard, indices);
    const changed = before.indices.every((b) => b.docsDeleted === 0 || after.indices.find((a) => a.name === b.name)?.storeBytes !== b.storeBytes);
    if (changed || Date.now() - start > staleMs) return after;
    await new Promise((r) => setTimeout(r, 1000));
  }
}
