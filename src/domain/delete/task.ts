// The task a delete (or merge) runs as: its id, its progress read from GET _tasks/<id>, one line of it.

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
  };
}

/** One line of progress: "deleted 1,200 / 3,400 (35%) · 2 batches · 0 conflicts · throttled 0s". */
export function progressLine(p: TaskProgress): string {
  const pct = p.total > 0 ? Math.floor((p.deleted / p.total) * 100) : p.completed ? 100 : 0;
  const rate = p.requestsPerSecond > 0 && Number.isFinite(p.requestsPerSecond) ? ` · ${p.requestsPerSecond}/s` : '';
  return `deleted ${p.deleted} / ${p.total} (${pct}%) · ${p.batches} batches · ${p.versionConflicts} version conflicts · throttled ${(p.throttledMillis / 1000).toFixed(1)}s${rate}`;
}
