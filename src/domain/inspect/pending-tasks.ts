// Pending cluster tasks (GET _cluster/pending_tasks): cluster-state updates the master has queued
// (create index, put mapping, shard started...). A long queue or an old task is Elastic's "cluster
// is stuck" symptom: the master cannot keep up. Shown in the Health pane while any exist, by
// `shardeck pending`, and as a doctor rule. Pure.
import { formatCount } from '../text/format';
import { displayText } from '../text/display-text';
import { fitText } from '../text/table';
import { formatMillis } from '../panes/nodes';
import type { Tone } from '../text/format';

/** Only the fields shown travel. */
export const PENDING_TASKS_FILTER = [
  'tasks.insert_order',
  'tasks.priority',
  'tasks.source',
  'tasks.executing',
  'tasks.time_in_queue_millis',
].join(',');

/** From this age on, the troubleshooting guide's "pending tasks" symptom (the doctor warns). */
export const PENDING_OLD_MS = 60_000;

export interface PendingTask {
  insertOrder: number;
  /** IMMEDIATE, URGENT, HIGH, NORMAL, LOW, LANGUID. */
  priority: string;
  /** What queued it, as the node words it ("create-index [x], cause [api]"): untrusted, escaped where shown. */
  source: string;
  executing: boolean;
  timeInQueueMs: number;
}

/** The answer, oldest first (an answer filtered down to nothing is `{}`: none pending). */
export function parsePendingTasks(body: any): PendingTask[] {
  const tasks = Array.isArray(body?.tasks) ? (body.tasks as any[]) : [];
  return tasks
    .map((t) => ({
      insertOrder: Number(t?.insert_order) || 0,
      priority: String(t?.priority ?? '?'),
      source: String(t?.source ?? ''),
      executing: t?.executing === true,
      timeInQueueMs: Number(t?.time_in_queue_millis) || 0,
    }))
    .sort((a, b) => b.timeInQueueMs - a.timeInQueueMs || a.insertOrder - b.insertOrder);
}

export function oldestPending(tasks: readonly PendingTask[]): number {
  return tasks.reduce((m, t) => Math.max(m, t.timeInQueueMs), 0);
}

export interface PendingLine {
  text: string;
  tone?: Tone;
  bold?: boolean;
  dim?: boolean;
}

/** One task: priority, time in queue, source (escaped); red once it waited a minute. */
export function pendingTaskText(t: PendingTask, width: number): string {
  const head = `  ${fitText(t.priority, 9)} ${fitText(formatMillis(t.timeInQueueMs), 7, 'right')} ${t.executing ? '*' : ' '} `;
  return fitText(head + displayText(t.source), width);
}

/**
 * The section: a heading with the count and the oldest age, then the oldest `max` tasks and how many
 * more; nothing when none is pending.
 */
export function pendingLines(tasks: readonly PendingTask[], width: number, max: number): PendingLine[] {
  if (!tasks.length) return [];
  const oldest = oldestPending(tasks);
  const lines: PendingLine[] = [
    {
      text: fitText(`pending cluster tasks ${formatCount(tasks.length)}, oldest ${formatMillis(oldest)} in queue (* executing)`, width),
      bold: true,
      tone: oldest >= PENDING_OLD_MS ? 'red' : 'yellow',
    },
  ];
  const shown = tasks.slice(0, Math.max(0, tasks.length > max ? max - 1 : max));
  for (const t of shown) lines.push({ text: pendingTaskText(t, width), tone: t.timeInQueueMs >= PENDING_OLD_MS ? 'red' : undefined });
  if (shown.length < tasks.length)
    lines.push({ text: fitText(`  … ${formatCount(tasks.length - shown.length)} more: shardeck pending`, width), dim: true });
  return lines;
}
