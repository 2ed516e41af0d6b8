// The Tasks pane's rows: every task the nodes run (GET _tasks, domain/parse.ts parseTasks), a parent
// with its children folded into one row (a sliced by-query's slices, a request's per-node parts),
// longest running first, and the details of the highlighted one.
import { displayText } from '../text/display-text';
import { formatCount, type Tone } from '../text/format';
import type { ClusterTask } from '../parse';
import type { Column, SortKey } from '../text/table';
import type { NodeInfo } from '../types';
import { formatMillis } from './nodes';
import { wrapText } from '../text/text';

export interface TaskLine extends ClusterTask {
  /** The node's name (its id when _cat/nodes does not list it). */
  nodeName: string;
  /** Its descendants, folded into this row. */
  children: ClusterTask[];
  /** Its own status, or its children's summed (a sliced by-query's parent counts only once they end). */
  progress: ClusterTask['status'];
}

/** A task that changes documents: cancelling it keeps what it already did, so its id is typed to confirm. */
export function taskWrites(action: string): boolean {
  return /byquery|reindex|data\/write\/update/.test(action);
}

/** By-query and reindex tasks take a new requests_per_second while they run. */
export function taskRethrottles(action: string): boolean {
  return /byquery|reindex/.test(action);
}

function summed(list: ClusterTask[]): ClusterTask['status'] {
  const with_ = list.filter((t) => t.status);
  if (!with_.length) return null;
  const s = with_.map((t) => t.status!);
  const add = (f: (x: NonNullable<ClusterTask['status']>) => number) => s.reduce((a, x) => a + f(x), 0);
  return {
    total: add((x) => x.total),
    done: add((x) => x.done),
    batches: add((x) => x.batches),
    versionConflicts: add((x) => x.versionConflicts),
    requestsPerSecond: add((x) => Math.max(0, x.requestsPerSecond)),
  };
}

/** Top-level tasks (whose parent is not in the list) with their descendants folded, nodes named. */
export function taskLines(tasks: readonly ClusterTask[], nodes: readonly NodeInfo[] = []): TaskLine[] {
  const ids = new Set(tasks.map((t) => t.id));
  const kids = new Map<string, ClusterTask[]>();
  for (const t of tasks) if (t.parent && ids.has(t.parent)) kids.set(t.parent, [...(kids.get(t.parent) ?? []), t]);
  const names = new Map(nodes.map((n) => [n.id, n.name]));
  const descendants = (id: string, seen: Set<string>): ClusterTask[] =>
    (kids.get(id) ?? []).filter((c) => !seen.has(c.id) && seen.add(c.id)).flatMap((c) => [c, ...descendants(c.id, seen)]);
  return tasks
    .filter((t) => !(t.parent && ids.has(t.parent)))
    .map((t) => {
      const children = descendants(t.id, new Set([t.id]));
      const own = t.status && t.status.total > 0 ? t.status : null;
      return { ...t, nodeName: names.get(t.node) ?? t.node, children, progress: own ?? summed(children) ?? t.status };
    });
}

export const TASK_SORT_KEYS: SortKey<TaskLine>[] = [
  // The first key is the pane's order: longest running first.
  { title: 'running', value: (r) => -r.runningMillis, largestFirst: true },
  { title: 'action', value: (r) => r.action },
  { title: 'node', value: (r) => r.nodeName },
  { title: 'children', value: (r) => -r.children.length, largestFirst: true },
];

export const taskSearchText = (r: TaskLine) => `${r.id} ${r.action} ${r.nodeName} ${r.description}`;

const folded = (r: TaskLine) => (r.children.length ? ` (+${r.children.length})` : '');

export const TASK_COLUMNS: Column<TaskLine>[] = [
  { title: 'running', width: 8, align: 'right', text: (r) => formatMillis(r.runningMillis) },
  { title: 'node', width: 10, text: (r) => displayText(r.nodeName), cut: 'middle' },
  {
    title: 'cancel',
    width: 6,
    text: (r) => (r.cancelled ? 'asked' : r.cancellable ? 'yes' : 'no'),
    tone: (r) => (r.cancelled ? 'yellow' : undefined),
  },
  {
    title: 'action',
    width: 33,
    text: (r) => `${displayText(r.action)}${folded(r)}`,
    cut: 'middle',
    tone: (r) => (taskWrites(r.action) ? 'yellow' : undefined),
  },
  { title: 'description', width: null, text: (r) => displayText(r.description) },
];

/** "deleted 20 / 100 (20%) · 2 batches · 0 conflicts · 1/s": a by-query or reindex task's status. */
export function taskStatusLine(r: Pick<TaskLine, 'action' | 'progress'>): string | null {
  const s = r.progress;
  if (!s) return null;
  const verb = /delete/.test(r.action) ? 'deleted' : /reindex/.test(r.action) ? 'written' : 'updated';
  const pct = s.total > 0 ? ` (${Math.floor((s.done / s.total) * 100)}%)` : '';
  const rate = s.requestsPerSecond > 0 && Number.isFinite(s.requestsPerSecond) ? `${s.requestsPerSecond}/s` : 'unthrottled';
  return `${verb} ${formatCount(s.done)} / ${formatCount(s.total)}${pct} · ${s.batches} batches · ${s.versionConflicts} conflicts · ${rate}`;
}

/** The highlighted task in a few lines: its id and node, what it is, its progress, what the keys can do with it. */
export function taskDetails(r: TaskLine): { text: string; tone?: Tone }[] {
  const lines: { text: string; tone?: Tone }[] = [
    { text: `${displayText(r.id)} on ${displayText(r.nodeName)} · ${displayText(r.action)} · running ${formatMillis(r.runningMillis)}` },
  ];
  if (r.description) lines.push({ text: `description: ${displayText(r.description)}` });
  const status = taskStatusLine(r);
  if (status) lines.push({ text: status });
  if (r.children.length) {
    const actions = [...new Set(r.children.map((c) => displayText(c.action)))].join(', ');
    lines.push({ text: `${r.children.length} child task${r.children.length === 1 ? '' : 's'}: ${actions}` });
  }
  if (r.cancelled) lines.push({ text: 'cancel asked: it stops at its next check', tone: 'yellow' });
  else if (!r.cancellable) lines.push({ text: 'not cancellable: Elasticsearch does not stop this kind of task', tone: 'gray' });
  return lines;
}

/**
 * Why a task cannot be cancelled or rethrottled (the pane's keys and `shardeck tasks cancel` /
 * `rethrottle` say it and send nothing), or null when it can.
 */
export function taskControlRefusal(
  t: { id: string; action: string; cancellable?: boolean; cancelled: boolean; completed?: boolean },
  what: 'cancel' | 'rethrottle',
): string | null {
  // The id and action come from the node: escaped here, so every screen and line gets them safe.
  const id = displayText(t.id);
  const action = displayText(t.action);
  if (t.completed) return `task ${id} has finished: nothing to ${what}`;
  if (what === 'rethrottle')
    return taskRethrottles(t.action) ? null : `task ${id} (${action}) takes no rate: only by-query and reindex tasks are rethrottled`;
  if (t.cancelled) return `task ${id} is being cancelled already: it stops at its next check`;
  if (!t.cancellable) return `task ${id} (${action}) is not cancellable: Elasticsearch does not stop this kind of task`;
  return null;
}

/**
 * Enter on a task: everything the list knows of it, wrapped at `width` (not cut): its id, node,
 * its parent, the whole description, its progress, each folded child on a line of its own, and
 * whether it can be cancelled or rethrottled.
 */
export function taskFullDetail(r: TaskLine, width: number): { text: string; tone?: Tone }[] {
  const wrap = (text: string, tone?: Tone) => wrapText(text, Math.max(20, width)).map((t) => ({ text: t, tone }));
  const out = [
    ...wrap(`task ${displayText(r.id)} · ${displayText(r.action)}`),
    ...wrap(`node ${displayText(r.nodeName)} (${displayText(r.node)}) · running ${formatMillis(r.runningMillis)}`),
    ...wrap(`parent task: ${r.parent ? displayText(r.parent) : 'none'}`),
    ...wrap(`description: ${r.description ? displayText(r.description) : '(none)'}`),
  ];
  const status = taskStatusLine(r);
  if (status) out.push(...wrap(status));
  if (r.children.length) out.push(...wrap(`${r.children.length} child task${r.children.length === 1 ? '' : 's'}:`));
  for (const c of r.children) {
    const s = c.status ? ` · ${taskStatusLine({ action: c.action, progress: c.status })}` : '';
    out.push(...wrap(`- ${displayText(c.id)} · ${displayText(c.action)} · ${formatMillis(c.runningMillis)}${s}`));
  }
  const cancel = taskControlRefusal({ ...r, completed: false }, 'cancel');
  const rethrottle = taskControlRefusal({ ...r, completed: false }, 'rethrottle');
  const writes = taskWrites(r.action) ? ' (its id is typed to confirm: it stops half done)' : '';
  out.push(...wrap(cancel ?? `cancellable${writes}`, cancel ? 'gray' : undefined));
  if (!rethrottle) out.push(...wrap('takes a new rate while it runs (rethrottle: requests_per_second)'));
  return out;
}
