// The task a delete (or merge) runs as: its id, its progress read from GET _tasks/<id>, one line of it.
import { fitText } from '../text/table';
import { displayWidth } from '../text/text';

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
  /** Whether Elasticsearch can cancel it (GET _tasks/<id>'s task.cancellable). */
  cancellable?: boolean;
  total: number;
  deleted: number;
  batches: number;
  versionConflicts: number;
  throttledMillis: number;
  requestsPerSecond: number;
  runningMillis: number;
  /** Failures the finished task reported, or its error. */
  failures: string[];
  /** A sliced by-query or reindex parent: how many slices, how many still run (their counts are summed in). */
  slices?: { count: number; running: number };
}

/**
 * A sliced parent's own counters stay 0 until its slices end (status.slices: the finished ones'
 * statuses, null for each one still running): the finished slices and the running ones (its child
 * tasks, GET _tasks?parent_task_id=<id>) summed. Null for a task that is not sliced.
 */
function slicedStatus(s: any, children: readonly any[]): { status: Record<string, number>; count: number; running: number } | null {
  if (!Array.isArray(s?.slices)) return null;
  const finished = (s.slices as any[]).filter((x) => x && typeof x === 'object');
  const parts = [...finished, ...children.map((c) => c?.status ?? {})];
  const add = (f: string) => parts.reduce((a, x) => a + (Number(x?.[f]) || 0), 0);
  return {
    status: {
      total: add('total'),
      deleted: add('deleted'),
      batches: add('batches'),
      version_conflicts: add('version_conflicts'),
      throttled_millis: add('throttled_millis'),
      // Each running slice goes at its share of the parent's rate.
      requests_per_second: children.length ? add('requests_per_second') : Number(s.requests_per_second ?? -1),
    },
    count: s.slices.length,
    running: s.slices.length - finished.length,
  };
}

/** Whether GET _tasks/<id> answered a sliced parent whose slices still run (their child tasks hold the counts). */
export function slicesRunning(body: any): boolean {
  const slices = body?.completed ? null : body?.task?.status?.slices;
  return Array.isArray(slices) && slices.some((x) => x === null);
}

/**
 * GET _tasks/<id>: the status while it runs, the stored response once completed; a sliced parent's
 * counts summed from its slices (`children`: the running slices' tasks, see slicedStatus).
 */
export function parseTask(id: string, body: any, children: readonly any[] = []): TaskProgress {
  const task = body?.task ?? {};
  const sliced = body?.response ? null : slicedStatus(task.status, children);
  const s = body?.response ?? sliced?.status ?? task.status ?? {};
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
      task.cancelled === true || Boolean(body?.response?.canceled ?? s.canceled) || /cancel/i.test(String(body?.error?.reason ?? '')),
    cancellable: task.cancellable === true,
    total: Number(s.total ?? 0),
    deleted: Number(s.deleted ?? 0),
    batches: Number(s.batches ?? 0),
    versionConflicts: Number(s.version_conflicts ?? 0),
    throttledMillis: Number(s.throttled_millis ?? 0),
    requestsPerSecond: Number(s.requests_per_second ?? -1),
    runningMillis: Math.round(Number(task.running_time_in_nanos ?? 0) / 1e6),
    failures,
    ...(sliced ? { slices: { count: sliced.count, running: sliced.running } } : {}),
  };
}

/**
 * One line of progress: "deleted 1,200 / 3,400 (35%) · 2 batches · 0 version conflicts · throttled 0s".
 * With a width (the task wizard at 80 columns), what matters least goes first so a sliced task's
 * "sliced: N slices, M running" stays in view: the batches, the throttled time, the conflicts, the
 * rate; the counts and the slices are kept (cut at the end only when even they do not fit).
 */
export function progressLine(p: TaskProgress, width = Infinity): string {
  const pct = p.total > 0 ? Math.floor((p.deleted / p.total) * 100) : p.completed ? 100 : 0;
  const rate = p.requestsPerSecond > 0 && Number.isFinite(p.requestsPerSecond) ? `${p.requestsPerSecond}/s` : '';
  // In the order shown; `drop`: the order they go in (0 never).
  const parts = [
    { text: `deleted ${p.deleted} / ${p.total} (${pct}%)`, drop: 0 },
    { text: `${p.batches} batches`, drop: 1 },
    { text: `${p.versionConflicts} version conflicts`, drop: 3 },
    { text: `throttled ${(p.throttledMillis / 1000).toFixed(1)}s`, drop: 2 },
    { text: rate, drop: 4 },
    { text: p.slices ? `sliced: ${p.slices.count} slices, ${p.slices.running} running` : '', drop: 0 },
  ].filter((x) => x.text);
  const join = (dropped: number) =>
    parts
      .filter((x) => x.drop === 0 || x.drop > dropped)
      .map((x) => x.text)
      .join(' · ');
  for (let dropped = 0; dropped <= 4; dropped++) {
    const line = join(dropped);
    if (displayWidth(line) <= width) return line;
  }
  return fitText(join(4), width).trimEnd();
}

/** A task's state in words: a cancel asked for is said as such, not as a problem (issue 47). */
export function taskState(p: Pick<TaskProgress, 'completed' | 'cancelled' | 'failures'>): string {
  if (!p.completed) return p.cancelled ? 'cancelling' : 'running';
  if (p.failures.length) return p.cancelled ? 'cancelled by request, with failures before' : 'finished with problems';
  return p.cancelled ? 'cancelled by request' : 'finished';
}

/** After a change: the rate a rethrottle set, or what a cancelled task did before it stopped. */
export function afterLine(verb: 'cancel' | 'rethrottle', p: TaskProgress): string {
  const done = /byquery/.test(p.action) ? `; ${progressLine(p)}` : '';
  if (verb === 'rethrottle')
    return `${taskState(p)} at ${p.requestsPerSecond > 0 && Number.isFinite(p.requestsPerSecond) ? `${p.requestsPerSecond} requests a second` : 'no throttle'}${done}`;
  return `${taskState(p)}${done}`;
}
