// Long-running tasks and the task backlog (issue 41): a search running longer than --long-search
// (60 s), any other task (by-query, reindex, force merge, snapshot, recovery) longer than
// --long-task (10 min), a by-query or reindex task whose counters did not move between the two
// reads, and queued work in several places at once (the master's pending tasks, the nodes' write
// and search queues, with the hot threads of the nodes concerned). The fix of a task is the Tasks
// pane's wizards (x cancel, t rethrottle) and `shardeck tasks cancel|rethrottle`. Pure.
import { displayText } from '../text/display-text';
import { formatCount } from '../text/format';
import type { HotNode } from '../nodes/hot-threads';
import type { NodePressure } from '../nodes/node-pressure';
import { formatMillis } from '../panes/nodes';
import type { ClusterTask } from '../parse';
import { oldestPending, type PendingTask } from '../inspect/pending-tasks';
import { FIXES, type Finding } from './finding';
import { windowText, type DoctorSample } from './sample';

export interface TaskThresholds {
  longSearchMs: number;
  longTaskMs: number;
  /** Where each threshold came from ("--long-task", "profile doctorLongTask", "default"). */
  source?: { longSearch: string; longTask: string };
}

/** The catalogues' usual thresholds: a search over a minute, any other task over ten minutes. */
export const DEFAULT_TASK_THRESHOLDS: TaskThresholds = { longSearchMs: 60_000, longTaskMs: 10 * 60_000 };

/** "60s", "10m", "1h", "2d", "500ms" (a number alone is seconds) as ms; null when it is not a duration. */
export function parseDurationMs(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!m) return null;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h' | 'd'];
  const v = Number(m[1]) * unit;
  return Number.isFinite(v) && v > 0 ? Math.round(v) : null;
}

/** A by-query, reindex, force merge, snapshot or recovery task as one word. */
export function taskKind(action: string): string {
  if (/byquery/.test(action)) return action.includes('update') ? 'update by query' : 'delete by query';
  if (/reindex/.test(action)) return 'reindex';
  if (/forcemerge/.test(action)) return 'force merge';
  if (/snapshot/.test(action)) return /restore/.test(action) ? 'restore' : 'snapshot';
  if (/recovery/.test(action)) return 'recovery';
  return action;
}

export const isSearchTask = (t: Pick<ClusterTask, 'action'>) => /^indices:data\/read\/(search|msearch|scroll)/.test(t.action);

/**
 * A task the operator started (a request), not the node's own: persistent tasks (health-node[c],
 * ML jobs, transforms: parent "cluster:N") run for ever by design, and the task list is this read.
 */
export function isOperatorTask(t: ClusterTask): boolean {
  if (t.parent !== null) return false;
  if (t.action.endsWith('[c]')) return false;
  return !t.action.startsWith('cluster:monitor/tasks/lists');
}

const NAMED = 5;

function taskLine(t: ClusterTask): string {
  const progress = t.status
    ? `, ${formatCount(t.status.done)}${t.status.total ? ` of ${formatCount(t.status.total)}` : ''} done in ${formatCount(t.status.batches)} batches${t.status.requestsPerSecond > 0 ? `, throttled to ${t.status.requestsPerSecond}/s` : ''}`
    : '';
  return `${t.id} ${t.action} running ${formatMillis(t.runningMillis)}${t.cancellable ? '' : ' (not cancellable)'}${t.cancelled ? ' (cancelling)' : ''}${progress}: ${displayText(t.description).slice(0, 160)}`;
}

function thresholdNote(th: TaskThresholds, which: 'longSearch' | 'longTask'): string {
  const ms = which === 'longSearch' ? th.longSearchMs : th.longTaskMs;
  return `threshold ${formatMillis(ms)} (${th.source?.[which] ?? 'default'})`;
}

/** tasks.long-search: searches running longer than the threshold. */
export function longSearchFinding(tasks: readonly ClusterTask[], th: TaskThresholds): Finding {
  const long = tasks.filter((t) => isOperatorTask(t) && isSearchTask(t) && t.runningMillis >= th.longSearchMs && !t.cancelled);
  long.sort((a, b) => b.runningMillis - a.runningMillis);
  if (!long.length)
    return {
      id: 'tasks.long-search',
      family: 'tasks',
      severity: 'ok',
      finding: `no search running longer than ${formatMillis(th.longSearchMs)}`,
      evidence: [thresholdNote(th, 'longSearch')],
    };
  const first = long[0];
  return {
    id: 'tasks.long-search',
    family: 'tasks',
    severity: 'warn',
    finding: `${long.length} search${long.length === 1 ? '' : 'es'} running longer than ${formatMillis(th.longSearchMs)}, the longest ${formatMillis(first.runningMillis)}: it holds search threads and heap`,
    evidence: [thresholdNote(th, 'longSearch'), ...long.slice(0, NAMED).map(taskLine)],
    remedy:
      'cancel it if nobody waits for it (x on the Tasks pane, or shardeck tasks cancel ID); then find the client that sends it: a smaller size, a narrower time range, no leading wildcard, a timeout on the request',
    fix: FIXES.taskCancel(first.id),
  };
}

/** tasks.long-running: other operator tasks (by-query, reindex, force merge, snapshot, recovery) longer than the threshold. */
export function longTaskFinding(tasks: readonly ClusterTask[], th: TaskThresholds): Finding {
  const long = tasks.filter((t) => isOperatorTask(t) && !isSearchTask(t) && t.runningMillis >= th.longTaskMs && !t.cancelled);
  long.sort((a, b) => b.runningMillis - a.runningMillis);
  if (!long.length)
    return {
      id: 'tasks.long-running',
      family: 'tasks',
      severity: 'ok',
      finding: `no other task running longer than ${formatMillis(th.longTaskMs)}`,
      evidence: [thresholdNote(th, 'longTask')],
    };
  const first = long[0];
  const throttled = long.find((t) => t.status && t.cancellable && t.status.requestsPerSecond > 0);
  return {
    id: 'tasks.long-running',
    family: 'tasks',
    severity: 'warn',
    finding: `${long.length} task${long.length === 1 ? '' : 's'} running longer than ${formatMillis(th.longTaskMs)}: ${long
      .slice(0, NAMED)
      .map((t) => `${taskKind(t.action)} ${t.id} (${formatMillis(t.runningMillis)})`)
      .join(', ')}`,
    evidence: [thresholdNote(th, 'longTask'), ...long.slice(0, NAMED).map(taskLine)],
    remedy:
      'if it still progresses and is wanted, let it run or rethrottle it (t on the Tasks pane, shardeck tasks rethrottle ID --rps N); if it is not wanted or stopped progressing, cancel it (x on the Tasks pane, shardeck tasks cancel ID; a force merge cannot be cancelled)',
    fix: throttled ? FIXES.taskRethrottle(throttled.id, -1) : FIXES.taskCancel(first.id),
  };
}

/** tasks.stalled: a by-query or reindex task whose counters did not move between the two reads, though its throttle allowed a batch. */
export function stalledTaskFinding(first: DoctorSample | undefined, second: DoctorSample | undefined): Finding {
  if (!first || !second)
    return { id: 'tasks.stalled', family: 'tasks', severity: 'unknown', finding: 'needs two reads of the tasks', evidence: [] };
  const windowMs = second.t - first.t;
  const stalled: { t: ClusterTask; why: string }[] = [];
  const throttled: string[] = [];
  for (const b of second.tasks) {
    const a = first.tasks.find((x) => x.id === b.id);
    if (!a?.status || !b.status || b.cancelled || !isOperatorTask(b)) continue;
    const moved =
      b.status.done !== a.status.done || b.status.batches !== a.status.batches || b.status.versionConflicts !== a.status.versionConflicts;
    if (moved) continue;
    const batch = b.status.batches > 0 ? b.status.done / b.status.batches : null;
    const rps = b.status.requestsPerSecond;
    // Throttled so that one batch takes longer than the window: no progress is visible, none is missing.
    if (rps > 0 && batch !== null && (rps * windowMs) / 1000 < batch) {
      throttled.push(
        `${b.id}: a batch of ~${Math.round(batch)} every ~${formatMillis(Math.round((batch / rps) * 1000))} at ${rps}/s: the window could not see progress`,
      );
      continue;
    }
    stalled.push({ t: b, why: `${formatCount(b.status.done)} done, ${formatCount(b.status.batches)} batches in both reads` });
  }
  const evidence = [`two reads ${windowText(windowMs)} apart`, ...throttled];
  if (!stalled.length)
    return {
      id: 'tasks.stalled',
      family: 'tasks',
      severity: 'ok',
      finding: 'no by-query or reindex task stopped progressing',
      evidence,
    };
  const first1 = stalled[0].t;
  return {
    id: 'tasks.stalled',
    family: 'tasks',
    severity: 'warn',
    finding: `${stalled.length} task${stalled.length === 1 ? '' : 's'} made no progress in ${windowText(windowMs)}: ${stalled
      .slice(0, NAMED)
      .map((s) => `${taskKind(s.t.action)} ${s.t.id}`)
      .join(', ')}`,
    evidence: [...evidence, ...stalled.slice(0, NAMED).map((s) => `${taskLine(s.t)} (${s.why})`)],
    remedy:
      "look at what it waits for (its node's hot threads: shardeck hot-threads NODE; the write queue; a cluster block on its index); if it stays stuck, cancel it (x on the Tasks pane, shardeck tasks cancel ID) and run it again",
    fix: FIXES.taskCancel(first1.id),
  };
}

/** Queued work that counts towards a backlog: a node's write or search queue in both reads, the master's pending tasks. */
export interface BacklogInputs {
  pending: readonly PendingTask[];
  first?: DoctorSample;
  second?: DoctorSample;
  /** The node statistics read at the start (its queues count with the first sample's: the early reading). */
  pressure?: readonly NodePressure[];
  /** The busiest threads of the nodes concerned (read only when a backlog is suspected). */
  hotThreads?: HotNode[];
  hotThreadsError?: string;
}

/** Pending tasks from which the master's queue counts as part of a backlog. */
export const BACKLOG_PENDING = 10;

/**
 * The nodes whose write or search queue held work early in the run (the first sample or the
 * statistics read beside it) and again at its end (the second sample), by name, with the pools.
 */
export function queuedNodes(
  first: DoctorSample | undefined,
  second: DoctorSample | undefined,
  pressure?: readonly NodePressure[],
): { node: string; pools: string[] }[] {
  if (!first || !second) return [];
  return second.nodes.flatMap((b) => {
    const a = first.nodes.find((x) => x.id === b.id);
    const p0 = pressure?.find((x) => x.id === b.id);
    const early = (pool: string) => Math.max(a?.queues[pool] ?? 0, p0?.pools.find((x) => x.name === pool)?.queue ?? 0);
    const pools = Object.keys(b.queues).filter((p) => (b.queues[p] ?? 0) > 0 && early(p) > 0);
    return pools.length ? [{ node: b.name, pools }] : [];
  });
}

/** Whether the doctor should read hot threads: queues held work in both reads, or the master's queue is long. */
export function backlogSuspected(i: Omit<BacklogInputs, 'hotThreads' | 'hotThreadsError'>): boolean {
  return queuedNodes(i.first, i.second, i.pressure).length > 0 || i.pending.length >= BACKLOG_PENDING;
}

/** tasks.backlog: the master's queue, the nodes' queues and their hot threads, together. */
export function backlogFinding(i: BacklogInputs): Finding {
  const queued = queuedNodes(i.first, i.second, i.pressure);
  const oldest = oldestPending(i.pending);
  const evidence = [
    `_cluster/pending_tasks: ${formatCount(i.pending.length)}${i.pending.length ? `, the oldest ${formatMillis(oldest)}` : ''}`,
    ...(i.second
      ? i.second.nodes.map(
          (n) =>
            `${n.name}: queue ${Object.entries(n.queues)
              .map(([p, q]) => `${p} ${q}`)
              .join(', ')}`,
        )
      : []),
    ...(i.hotThreads ?? []).flatMap((h) =>
      h.threads
        .slice(0, 2)
        .map(
          (t) =>
            `hot thread on ${h.name}: ${t.percent}% ${t.pool ?? t.name}${t.stacks[0]?.frames[0] ? ` at ${t.stacks[0].frames[0].trim()}` : ''}`,
        ),
    ),
    ...(i.hotThreadsError ? [`hot threads not read: ${i.hotThreadsError}`] : []),
  ];
  if (!backlogSuspected(i))
    return {
      id: 'tasks.backlog',
      family: 'tasks',
      severity: 'ok',
      finding: `no backlog: ${i.pending.length ? `${formatCount(i.pending.length)} pending cluster task(s)` : 'no pending cluster task'}, no write or search queue held work in both reads`,
      evidence,
    };
  const where = [
    ...(i.pending.length >= BACKLOG_PENDING
      ? [`${formatCount(i.pending.length)} tasks in the master's queue (oldest ${formatMillis(oldest)})`]
      : []),
    ...queued.map((q) => `${q.node}'s ${q.pools.join(' and ')} queue`),
  ];
  return {
    id: 'tasks.backlog',
    family: 'tasks',
    severity: 'warn',
    finding: `work is queuing: ${where.join('; ')}`,
    evidence,
    remedy:
      'the hot threads say what the busy nodes do (shardeck hot-threads NODE); long tasks add to it (shardeck tasks --all: cancel a runaway search or by-query); clients should send fewer, smaller requests and back off on 429',
    fix: { command: 'shardeck hot-threads' },
  };
}

export interface TaskInputs extends BacklogInputs {
  thresholds: TaskThresholds;
}

export function taskFindings(i: TaskInputs): Finding[] {
  const tasks = i.second?.tasks ?? i.first?.tasks ?? [];
  return [
    longSearchFinding(tasks, i.thresholds),
    longTaskFinding(tasks, i.thresholds),
    stalledTaskFinding(i.first, i.second),
    backlogFinding(i),
  ];
}
