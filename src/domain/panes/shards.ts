// The Shards pane's rows: every copy of _cat/shards, or only those not STARTED; how they sort,
// filter and show, and the tone that says what an unassigned copy costs.
import { formatBytes, type Tone } from '../text/format';
import { compareValues, type Column, type SortKey } from '../text/table';
import type { ShardRow } from '../types';

export function shardTone(s: ShardRow): Tone {
  if (s.state === 'STARTED') return 'green';
  // A missing primary loses data access (red); a missing replica loses redundancy (yellow).
  if (s.state === 'UNASSIGNED') return s.primary ? 'red' : 'yellow';
  return 'yellow';
}

/** The copies shown: all, or (u) only those not STARTED. */
/** A shard copy's identity for the cursor: index/shard/p|r/node (an unassigned copy has no node). */
export function shardKey(r: ShardRow): string {
  return `${r.index}/${r.shard}/${r.primary ? 'p' : 'r'}/${r.node ?? ''}`;
}

export function shardLines(rows: ShardRow[] | undefined, problemsOnly: boolean): ShardRow[] | undefined {
  return problemsOnly ? rows?.filter((s) => s.state !== 'STARTED') : rows;
}

/**
 * The title line's counts, with why shards are unassigned ("4 unassigned: 4 NODE_LEFT") and how many
 * wait out index.unassigned.node_left.delayed_timeout before ES places them elsewhere (from health).
 */
export function shardsInfo(shown: number, problemsOnly: boolean, rows: ShardRow[] | undefined, delayed = 0): string {
  const unassigned = rows?.filter((s) => s.state === 'UNASSIGNED') ?? [];
  const byReason = new Map<string, number>();
  for (const s of unassigned) byReason.set(s.unassignedReason ?? '?', (byReason.get(s.unassignedReason ?? '?') ?? 0) + 1);
  const reasons = [...byReason].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${n} ${r}`);
  const why = reasons.length ? `: ${reasons.join(', ')}` : '';
  const wait = delayed > 0 ? ` · ${delayed} delayed (node left, allocation waits)` : '';
  return `${shown} shards${problemsOnly ? ' (problems only: u)' : ''} · ${unassigned.length} unassigned${why}${wait}`;
}

const STATE_ORDER: Record<string, number> = { UNASSIGNED: 0, INITIALIZING: 1, RELOCATING: 2, STARTED: 3 };

export const SHARD_SORT_KEYS: SortKey<ShardRow>[] = [
  {
    title: 'index',
    value: (r) => `${r.index}\u0000${String(r.shard).padStart(6, '0')}${r.primary ? 'p' : 'r'}`,
    // The same order without a string per row: index, shard number, primary first.
    compare: (a, b) => compareValues(a.index, b.index) || a.shard - b.shard || (a.primary === b.primary ? 0 : a.primary ? -1 : 1),
  },
  { title: 'state', value: (r) => STATE_ORDER[r.state] ?? 1 },
  { title: 'node', value: (r) => r.node ?? '' },
  { title: 'size', value: (r) => r.storeBytes ?? 0 },
  { title: 'shard', value: (r) => r.shard },
  { title: 'p/r', value: (r) => (r.primary ? 0 : 1) },
  { title: 'reason', value: (r) => r.unassignedReason ?? '' },
];

/** What the filter searches in. */
export const shardSearchText = (r: ShardRow) => `${r.index} ${r.state} ${r.node ?? ''} ${r.unassignedReason ?? ''}`;

export const SHARD_COLUMNS: Column<ShardRow>[] = [
  { title: 'index', width: null, text: (r) => r.index, cut: 'middle' },
  { title: 'shard', width: 5, align: 'right', text: (r) => String(r.shard) },
  { title: 'p/r', width: 3, text: (r) => (r.primary ? 'p' : 'r') },
  { title: 'state', width: 12, text: (r) => r.state, tone: shardTone },
  { title: 'node', width: 12, text: (r) => r.node ?? '-', cut: 'middle' },
  { title: 'size', width: 8, align: 'right', text: (r) => formatBytes(r.storeBytes) },
  { title: 'reason', width: 16, text: (r) => r.unassignedReason ?? '' },
];
