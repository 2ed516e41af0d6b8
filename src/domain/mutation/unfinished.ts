// A change whose outcome was never recorded: its "sending" record is in the audit log, no outcome
// line follows, and the process that sent it is gone (killed between "sending" and the answer: a
// dropped SSH session, an OOM kill). The next change command to that cluster says so and reads the
// cluster back instead of leaving the operator to guess, or to send it again. Pure.
import type { AuditOutcome, AuditRecord } from './audit';
import type { MutationRequest, VerifyCheck } from './plan';

/**
 * This log's changes to `url` (undefined: to any cluster) without an outcome whose sender is not
 * alive (`alive(pid)`: a change still in flight in another shardeck is none of ours). Host reads
 * and other users' journals are not changes of this log.
 */
export function unfinishedChanges(records: AuditRecord[], url: string | undefined, alive: (pid: number) => boolean): AuditRecord[] {
  return records.filter(
    (r) =>
      r.id &&
      r.request &&
      !r.outcome &&
      !r.journalOf &&
      r.risk !== 'read' &&
      (url === undefined || r.url === url) &&
      !(r.pid !== undefined && alive(r.pid)),
  );
}

/** Nested settings as Elasticsearch's flat keys ({ index: { blocks: { x: null } } } -> { "index.blocks.x": null }). */
export function flatSettings(body: unknown, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return out;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) Object.assign(out, flatSettings(v, key));
    else out[key] = v;
  }
  return out;
}

/** Does the flat setting read back hold what the request set (null: reset, so absent)? Elasticsearch answers strings. */
function holds(asked: unknown, now: unknown): boolean {
  if (asked === null) return now === undefined;
  // Flattened values are scalars (or lists, compared as JSON).
  const text = (v: unknown) => JSON.stringify(typeof v === 'number' || typeof v === 'boolean' ? String(v) : v);
  return now !== undefined && text(now) === text(asked);
}

function compare(asked: Record<string, unknown>, now: (key: string) => unknown, where: string): { ok: boolean; message: string } {
  const differ = Object.keys(asked).filter((k) => !holds(asked[k], now(k)));
  return differ.length
    ? { ok: false, message: `${where} does not hold ${differ.map((k) => `${k}=${JSON.stringify(asked[k])}`).join(', ')}` }
    : { ok: true, message: `${where} holds ${Object.keys(asked).join(', ')} as sent` };
}

/**
 * A read-back built from the request alone (the plan's own check did not outlive its process):
 * a settings change (cluster or index) is read back by comparing the settings it sent with the
 * cluster's now. Null for every other change (a merge, a delete task...): nothing to compare.
 */
export function readBackOfRequest(req: MutationRequest): VerifyCheck | null {
  if (req.method !== 'PUT') return null;
  const asked = flatSettings(req.body);
  if (!Object.keys(asked).length) return null;
  if (req.path === '/_cluster/settings') {
    return {
      path: '/_cluster/settings',
      querystring: { flat_settings: 'true' },
      check(body) {
        const b = (body ?? {}) as Record<string, Record<string, unknown> | undefined>;
        // persistent.x / transient.x as sent; a key sent without one is looked up in both.
        const now = (key: string) => {
          const [scope, ...rest] = key.split('.');
          if (scope === 'persistent' || scope === 'transient') return b[scope]?.[rest.join('.')];
          return b.persistent?.[key] ?? b.transient?.[key];
        };
        return compare(asked, now, 'the cluster');
      },
    };
  }
  const m = /^\/([^/_][^/]*)\/_settings$/.exec(req.path);
  if (!m) return null;
  const wanted = Object.fromEntries(Object.entries(asked).map(([k, v]) => [k.startsWith('index.') ? k : `index.${k}`, v]));
  return {
    path: `/${m[1]}/_settings`,
    querystring: { flat_settings: 'true', expand_wildcards: 'all' },
    check(body) {
      const indices = Object.entries((body ?? {}) as Record<string, { settings?: Record<string, unknown> }>);
      if (!indices.length) return { ok: false, message: 'none of its indices is there any more' };
      const results = indices.map(([index, v]) => compare(wanted, (k) => v.settings?.[k], index));
      const bad = results.filter((r) => !r.ok);
      return bad.length
        ? { ok: false, message: bad.map((r) => r.message).join('; ') }
        : { ok: true, message: results.map((r) => r.message).join('; ') };
    },
  };
}

/**
 * The outcome a later run records for an unfinished change: what reading the cluster back says
 * (`check`: null when it could not be read, or the change has no read-back), never "sent again".
 */
export function unfinishedOutcome(check: { ok: boolean; message: string } | null, why: string): AuditOutcome {
  return {
    ok: false,
    durationMs: 0,
    error: 'no outcome recorded: shardeck stopped between sending and the answer',
    applied: check === null ? 'unknown' : check.ok ? 'yes' : 'no',
    readBack: check === null ? why : `(by a later run) ${check.message}`,
  };
}

/** A task a recorded request starts (a delete-by-query or a force merge, sent with wait_for_completion=false). */
export interface RecordedTask {
  action: string;
  indices: string[];
}

const TASK_ACTIONS: Record<string, string> = {
  _delete_by_query: 'indices:data/write/delete/byquery',
  _forcemerge: 'indices:admin/forcemerge',
};

/** The task this request starts, to look it up in _tasks when its answer (the task id) was lost; null for other requests. */
export function taskOfRequest(req: MutationRequest): RecordedTask | null {
  const m = /^\/([^/_][^/]*)\/(_delete_by_query|_forcemerge)$/.exec(req.path);
  if (req.method !== 'POST' || !m) return null;
  return { action: TASK_ACTIONS[m[2]], indices: m[1].split(',').map(decodeURIComponent) };
}

/**
 * The running task the recorded request started: its action, every index of the request named in
 * its description ("delete-by-query [a, b]", "Force-merge indices [a], ..."), and started no
 * earlier than the record was written (`skewMs` for two clocks). Null when none runs (it ended, or
 * never started: still unknown).
 */
export function recordedTaskAmong(
  t: RecordedTask,
  recordedAt: string,
  running: { id: string; action: string; description: string; runningMillis: number }[],
  nowMs: number,
  skewMs = 5000,
): { id: string } | null {
  const sentMs = Date.parse(recordedAt);
  const names = (d: string) => new Set((/\[([^\]]*)\]/.exec(d)?.[1] ?? '').split(',').map((n) => n.trim()));
  return (
    running.find(
      (r) => r.action === t.action && t.indices.every((i) => names(r.description).has(i)) && nowMs - r.runningMillis >= sentMs - skewMs,
    ) ?? null
  );
}
