// The pure half of query-before-delete and force merge: the three ways to say which documents
// (older than a date, one source, a JSON body), where invalid JSON is wrong, the guarded plans
// (delete capped by max_docs at the previewed count; expunge-deletes merge), task progress, and
// the after-report. services/delete-by-query.ts reads and sends.
import type { MutationPlan } from './mutation';

export type Query = Record<string, unknown>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** The field the platform stamps on every document, and the one naming its sources. */
export const MODIFIED_AT = 'modified_at';
export const SOURCES = 'assoc:sources';

const RELATIVE_UNITS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * "90d", "12w", "36h" (before `now`) or an ISO date ("2026-01-31", "2026-01-31T12:00:00Z"),
 * resolved to the absolute instant the operator is shown before anything runs.
 */
/** The earliest instant an older-than may name: 0001-01-01, the first four-digit ISO year (what Elasticsearch's date format reads). */
const EARLIEST_MS = Date.parse('0001-01-01T00:00:00Z');

/** Whether y-m-d is a day of the calendar (Date.parse turns 2026-02-31 into March 3). */
function isCalendarDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  return d <= days;
}

export function parseOlderThan(input: string, now: number): Parsed<string> {
  const t = input.trim();
  const rel = /^(\d+)([hdw])$/i.exec(t);
  if (rel) {
    const n = Number(rel[1]);
    if (n === 0) return { ok: false, error: `--older-than "${input}" would match every document: give a positive age such as 90d` };
    const unit = rel[2].toLowerCase();
    const ms = now - n * RELATIVE_UNITS[unit];
    // A huge age overflows Date (toISOString throws): refuse it in words, before anything renders or is sent.
    if (!Number.isFinite(ms) || ms < EARLIEST_MS) {
      const max = Math.floor((now - EARLIEST_MS) / RELATIVE_UNITS[unit]);
      return { ok: false, error: `--older-than "${input}" reaches back before the year 1: give an age of at most ${max}${unit}` };
    }
    return { ok: true, value: new Date(ms).toISOString() };
  }
  // Date-only is midnight UTC; a time without a zone would depend on this machine's zone, so it must carry one.
  const day = /^(\d{4})-(\d{2})-(\d{2})(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/i.exec(t);
  const iso = !day ? null : day[4] === undefined ? `${t}T00:00:00Z` : /^T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(day[4]) ? t : null;
  const ms = iso === null ? NaN : Date.parse(iso);
  if (Number.isNaN(ms))
    return { ok: false, error: `--older-than "${input}" is neither an age (90d, 12w, 36h) nor an ISO date (2026-01-31 or 2026-01-31T12:00:00Z): give one of those` };
  if (!isCalendarDay(Number(day![1]), Number(day![2]), Number(day![3])))
    return { ok: false, error: `--older-than "${input}" is not a day of the calendar (month 01-12, and no such day in that month): give a real date such as 2026-01-31` };
  if (ms > now) return { ok: false, error: `--older-than "${input}" is in the future, so it would match every document: give a past date` };
  return { ok: true, value: new Date(ms).toISOString() };
}

export function olderThanQuery(isoInstant: string): Query {
  return { range: { [MODIFIED_AT]: { lt: isoInstant } } };
}

export function sourceQuery(sourceId: string): Parsed<Query> {
  if (sourceId.trim() === '') return { ok: false, error: 'no source given: --source takes a source id such as src-crm' };
  return { ok: true, value: { term: { [SOURCES]: sourceId } } };
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/**
 * Where JSON.parse gave up. V8 names a position for most errors but not for an unexpected token,
 * so that case is found by scanning: the offset of the first character that cannot continue a
 * JSON value. Null when the text parses.
 */
export function jsonErrorOffset(text: string): { offset: number; message: string } | null {
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    const message = (e as Error).message.replace(/,? ".*" is not valid JSON$/s, '').replace(/ in JSON at position \d+.*$/s, '');
    const pos = /at position (\d+)/.exec((e as Error).message);
    if (pos) return { offset: Number(pos[1]), message };
    if (/end of JSON input/.test(message)) return { offset: text.length, message };
    return { offset: scanJsonError(text), message };
  }
}

/** A minimal recursive-descent walk that returns the offset of the first invalid character. */
function scanJsonError(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    const lit = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i));
    if (!lit) fail();
    i += lit![0].length;
    // "tru}" fails at the first character that does not spell the literal.
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail();
    i++;
  };
  try {
    value();
    ws();
    return i;
  } catch (at) {
    // A literal that starts right but is cut short ("tru") is wrong where it stops matching.
    const m = /^[a-z]+/.exec(text.slice(at as number));
    if (m) {
      for (const word of ['true', 'false', 'null']) {
        let k = 0;
        while (k < m[0].length && word[k] === m[0][k]) k++;
        if (k > 0) return (at as number) + k;
      }
    }
    return at as number;
  }
}

/**
 * A request body from a file (or pasted): it must parse and have a top-level "query" object, as
 * a logged search body does (seed, rule 2), so it works as-is. Only the query is sent.
 */
export function parseQueryBody(text: string, name: string): Parsed<{ query: Query; ignored: string[] }> {
  const err = jsonErrorOffset(text);
  if (err) {
    const { line, column } = lineColumn(text, err.offset);
    return { ok: false, error: `${name} is not valid JSON at line ${line}, column ${column} (${err.message}): fix it there; nothing was sent` };
  }
  const body: unknown = JSON.parse(text);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { ok: false, error: `${name} must hold a JSON object with a top-level "query", like {"query": {"term": {"assoc:sources": "src-crm"}}}` };
  const query = (body as Record<string, unknown>).query;
  if (query === undefined)
    return { ok: false, error: `${name} has no top-level "query": wrap the query as {"query": {...}} (nothing was sent)` };
  if (query === null || typeof query !== 'object' || Array.isArray(query) || Object.keys(query).length === 0)
    return { ok: false, error: `"query" in ${name} must be a non-empty object such as {"match_all": {}}` };
  return { ok: true, value: { query: query as Query, ignored: Object.keys(body).filter((k) => k !== 'query') } };
}

/** Parses --expect N: a whole number of documents, as the operator read it in the preview. */
export function parseExpected(raw: string): Parsed<number> {
  const t = raw.trim().replace(/,/g, '');
  if (!/^\d+$/.test(t)) return { ok: false, error: `--expect "${raw}" is not a number of documents: give the count the preview showed, e.g. --expect 1234` };
  // Beyond 2^53 the number is no longer exact, so it could not match the preview's count.
  if (!Number.isSafeInteger(Number(t))) return { ok: false, error: `--expect "${raw}" is larger than any count a preview shows: give the count the preview showed` };
  return { ok: true, value: Number(t) };
}

export type ConflictsPolicy = 'abort' | 'proceed';

export const CONFLICTS_LINE: Record<ConflictsPolicy, string> = {
  abort: 'conflicts=abort (default): a document changed while the delete runs stops it there; what was deleted stays deleted.',
  proceed: 'conflicts=proceed: documents changed while the delete runs are skipped and counted as version conflicts.',
};

/**
 * The delete, capped at the previewed count so it can never delete more than was shown; it runs
 * as a task. The operator confirms by typing that count.
 */
/** requestsPerSecond: a starting throttle (documents per second); -1 or absent for none. */
export function deleteByQueryPlan(index: string, query: Query, previewed: number, conflicts: ConflictsPolicy, requestsPerSecond = -1): MutationPlan {
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

/** Frees the disk the deleted documents still take; runs as a task. */
export function forcemergePlan(expr: string): MutationPlan {
  return {
    method: 'POST',
    path: `/${encodeURIComponent(expr)}/_forcemerge`,
    querystring: { only_expunge_deletes: 'true', wait_for_completion: 'false' },
    risk: 'reversible',
    target: expr,
    summary: `merge away the deleted documents of ${expr} (only_expunge_deletes)`,
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

/** The task id a wait_for_completion=false request answered with ("node:123"), or null. */
export function taskIdOf(body: unknown): string | null {
  const t = (body as { task?: unknown } | null)?.task;
  return typeof t === 'string' && /^[\w-]+:\d+$/.test(t) ? t : null;
}

export function isTaskId(s: string): boolean {
  return /^[\w-]+:\d+$/.test(s);
}

export interface TaskProgress {
  id: string;
  action: string;
  description: string;
  completed: boolean;
  cancelled: boolean;
  total: number;
  deleted: number;
  batches: number;
  versionConflicts: number;
  throttledMillis: number;
  requestsPerSecond: number;
  runningMillis: number;
  /** Failures the finished task reported, or its error. */
  failures: string[];
}

/** GET _tasks/<id>: the status while it runs, the stored response once completed. */
export function parseTask(id: string, body: any): TaskProgress {
  const task = body?.task ?? {};
  const s = body?.response ?? task.status ?? {};
  const failures: string[] = [];
  if (body?.error) failures.push(`${body.error.type ?? 'error'}: ${body.error.reason ?? JSON.stringify(body.error)}`);
  for (const f of body?.response?.failures ?? []) failures.push(f?.cause?.reason ?? f?.reason ?? JSON.stringify(f));
  return {
    id,
    action: String(task.action ?? ''),
    description: String(task.description ?? ''),
    completed: body?.completed === true,
    // A finished task says why it was cancelled in response.canceled ("by user request"), while
    // its task.cancelled is false again; an error may name the cancellation instead.
    cancelled:
      task.cancelled === true ||
      Boolean(body?.response?.canceled ?? s.canceled) ||
      /cancel/i.test(String(body?.error?.reason ?? '')),
    total: Number(s.total ?? 0),
    deleted: Number(s.deleted ?? 0),
    batches: Number(s.batches ?? 0),
    versionConflicts: Number(s.version_conflicts ?? 0),
    throttledMillis: Number(s.throttled_millis ?? 0),
    requestsPerSecond: Number(s.requests_per_second ?? -1),
    runningMillis: Math.round(Number(task.running_time_in_nanos ?? 0) / 1e6),
    failures,
  };
}

/** One line of progress: "deleted 1,200 / 3,400 (35%) · 2 batches · 0 conflicts · throttled 0s". */
export function progressLine(p: TaskProgress): string {
  const pct = p.total > 0 ? Math.floor((p.deleted / p.total) * 100) : p.completed ? 100 : 0;
  const rate = p.requestsPerSecond > 0 && Number.isFinite(p.requestsPerSecond) ? ` · ${p.requestsPerSecond}/s` : '';
  return `deleted ${p.deleted} / ${p.total} (${pct}%) · ${p.batches} batches · ${p.versionConflicts} version conflicts · throttled ${(p.throttledMillis / 1000).toFixed(1)}s${rate}`;
}

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
    lines.push(`${stillMatching} matching documents were not deleted: max_docs capped the delete at the previewed count (they were written after the preview or not seen); preview again to delete them`);
  if (task.deleted > 0) lines.push('the disk is not freed until the segments merge: shardeck forcemerge <index> --expunge-deletes');
  return { previewed, deleted: task.deleted, stillMatching, ok, lines };
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

/** A delete as its audit record tells it: where, which query, how many at most, which task. */
export interface RecordedDelete {
  index: string;
  query: Query;
  previewed: number;
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
export function lostDeleteReport(d: RecordedDelete, stillMatching: number): { previewed: number; stillMatching: number; deleted: number; lines: string[] } {
  const deleted = Math.max(0, d.previewed - stillMatching);
  return {
    previewed: d.previewed,
    stillMatching,
    deleted,
    lines: [
      `the task is gone (the node restarted while it ran); its delete of ${d.index} was sent at ${d.time}`,
      `previewed ${d.previewed}, the same query matches ${stillMatching} now: about ${deleted} were deleted (matching documents written since blur this)`,
      stillMatching > 0 ? `to delete the rest, preview again: shardeck delete-by-query ${d.index} ... --dry-run` : 'nothing of the previewed query is left',
    ],
  };
}

/** Share of the index a query matches, for the preview ("12.5% of 10,000 documents"). */
export function matchShare(matching: number, total: number): number {
  return total > 0 ? (matching / total) * 100 : 0;
}

export interface MergeTarget {
  index: string;
  docsDeleted: number;
  storeBytes: number;
}

/**
 * A merge rewrites segments and may briefly need up to the size of what it rewrites; refused when
 * a node is already past the high watermark, warned when the largest index exceeds its headroom.
 */
export function judgeMergeSpace(targets: MergeTarget[], nodes: { node: string; level: string; headroomToHighBytes: number }[]): { refuse?: string; warnings: string[] } {
  const past = nodes.filter((n) => n.level === 'high' || n.level === 'flood');
  if (past.length)
    return {
      refuse: `${past.map((n) => n.node).join(', ')} ${past.length === 1 ? 'is' : 'are'} past the high disk watermark; a merge needs extra space while it runs: free disk first (delete whole indices or add nodes), then merge`,
      warnings: [],
    };
  const largest = Math.max(0, ...targets.map((t) => t.storeBytes));
  const warnings = nodes
    .filter((n) => n.headroomToHighBytes < largest)
    .map((n) => `${n.node} has less room before the high watermark than the largest index to merge: the merge may push it past`);
  return { warnings };
}

/**
 * Shards whose history retention leases still retain operations (GET <index>/_stats?level=shards):
 * soft-deleted documents under a lease survive a merge, so an expunge-deletes merge right after a
 * delete reclaims nothing until the leases advance (Elasticsearch syncs them every 30 s).
 */
export function shardsRetainingDeletes(stats: any): number {
  let behind = 0;
  for (const index of Object.values<any>(stats?.indices ?? {}))
    for (const copies of Object.values<any>(index?.shards ?? {}))
      for (const copy of copies ?? []) {
        const max = Number(copy?.seq_no?.max_seq_no ?? -1);
        const leases: any[] = copy?.retention_leases?.leases ?? [];
        if (leases.some((l) => Number(l.retaining_seq_no) <= max)) behind++;
      }
  return behind;
}
