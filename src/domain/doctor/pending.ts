// Pending cluster tasks (Elastic's troubleshooting guide "Diagnose pending tasks"): a task that
// waited a minute in the master's queue means the master cannot keep up with cluster-state
// updates. Evidence: how many, the oldest, what queued them. Pure.
import { formatCount } from '../text/format';
import { displayText } from '../text/display-text';
import { formatMillis } from '../panes/nodes';
import { oldestPending, PENDING_OLD_MS, type PendingTask } from '../inspect/pending-tasks';
import type { Finding } from './finding';

/** The first word of a source ("create-index [x], cause [api]" -> "create-index"): what kind of update. */
function kindOf(source: string): string {
  return source.split(/[\s[]/, 1)[0] || '?';
}

export function pendingFindings(tasks: readonly PendingTask[]): Finding[] {
  const oldest = oldestPending(tasks);
  const kinds = new Map<string, number>();
  for (const t of tasks) kinds.set(kindOf(t.source), (kinds.get(kindOf(t.source)) ?? 0) + 1);
  const evidence = tasks.length
    ? [
        `_cluster/pending_tasks: ${formatCount(tasks.length)} queued, the oldest ${formatMillis(oldest)}: ${tasks[0].priority} ${displayText(tasks[0].source)}`,
        `by kind: ${[...kinds]
          .sort((a, b) => b[1] - a[1])
          .map(([k, n]) => `${displayText(k)} ${formatCount(n)}`)
          .join(', ')}`,
      ]
    : ['_cluster/pending_tasks: none queued'];
  const old = oldest >= PENDING_OLD_MS;
  return [
    {
      id: 'pending.queue',
      family: 'pending',
      severity: old ? 'warn' : 'ok',
      finding: old
        ? `a cluster task has waited ${formatMillis(oldest)} in the master's queue (${formatCount(tasks.length)} pending): the master is not keeping up with cluster-state updates`
        : tasks.length
          ? `${formatCount(tasks.length)} pending cluster tasks, none older than a minute`
          : 'no pending cluster tasks',
      evidence,
      ...(old
        ? {
            remedy:
              'see what the master is busy with: its hot threads (shardeck hot-threads MASTER) and long tasks (shardeck tasks --all); find what floods the queue by the sources above: many create-index or put-mapping (clients creating indices or new fields one by one: use templates and explicit mappings), shard-started/shard-failed (a relocation or recovery storm: too many shards, or nodes leaving); reduce the shard count; give the master node more CPU and heap, or dedicated master nodes',
            fix: { pane: 'health', command: 'shardeck pending' },
          }
        : {}),
    },
  ];
}
