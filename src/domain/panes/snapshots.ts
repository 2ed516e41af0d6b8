// The Snapshots pane's rows and lines: every repository's snapshots newest first, the selected
// one's indices and failures, what runs now (a snapshot being taken, a restore) with its
// percentage for a bar, and which snapshots hold the index highlighted in the Indices pane.
import { formatCount, type Tone } from '../text/format';
import type { Column, SortKey } from '../text/table';
import {
  failureLines,
  formatTime,
  holdingIndex,
  progressLine,
  recoveryLine,
  recoveryPercent,
  repositoryLine,
  snapshotPercent,
  stateTone,
  type Line,
  type ShardRecovery,
  type SnapshotInfo,
  type SnapshotProgress,
  type SnapshotRepository,
} from '../snapshots';
import { formatMillis } from './nodes';

export const snapshotKey = (s: SnapshotInfo) => `${s.repository}/${s.name}`;

export const SNAPSHOT_SORT_KEYS: SortKey<SnapshotInfo>[] = [
  // Titles as the columns': the sorted one's header carries the arrow.
  { title: 'start (UTC)', value: (s) => -(s.startMs ?? 0), largestFirst: true },
  { title: 'snapshot', value: (s) => s.name },
  { title: 'repo', value: (s) => s.repository },
  { title: 'state', value: (s) => s.state },
  { title: 'idx', value: (s) => s.indices.length },
  { title: 'ok/fail', value: (s) => s.shards.failed },
  { title: 'took', value: (s) => s.durationMs ?? -1 },
];

export const snapshotSearchText = (s: SnapshotInfo) => `${s.repository} ${s.name} ${s.state} ${s.indices.join(' ')}`;

const duration = (s: SnapshotInfo) =>
  s.state === 'IN_PROGRESS' ? 'running' : s.durationMs !== undefined ? formatMillis(s.durationMs) : '-';

export const SNAPSHOT_COLUMNS: Column<SnapshotInfo>[] = [
  { title: 'snapshot', width: null, text: (s) => s.name, cut: 'middle' },
  { title: 'repo', width: 10, text: (s) => s.repository, cut: 'middle' },
  { title: 'state', width: 11, text: (s) => s.state, tone: (s) => stateTone(s.state) },
  { title: 'idx', width: 4, align: 'right', text: (s) => formatCount(s.indices.length) },
  {
    title: 'ok/fail',
    width: 7,
    align: 'right',
    text: (s) => `${formatCount(s.shards.ok)}/${formatCount(s.shards.failed)}`,
    tone: (s) => (s.shards.failed ? 'red' : undefined),
  },
  // "2026-11-26 01:00" (UTC, as the log has it): the seconds are in the details.
  { title: 'start (UTC)', width: 16, text: (s) => formatTime(s.startMs).slice(0, 16) },
  { title: 'took', width: 6, align: 'right', text: duration },
];

/** The pane's title info: "2 snapshots · 1 repository". */
export function snapshotsInfo(snapshots: number, repositories: number): string {
  return `${formatCount(snapshots)} snapshot${snapshots === 1 ? '' : 's'} · ${formatCount(repositories)} ${repositories === 1 ? 'repository' : 'repositories'}`;
}

/** Above the table: the repositories, or how to make one when there is none. */
export function repositoriesLine(repos: readonly SnapshotRepository[]): Line {
  if (!repos.length)
    return { text: 'no repository: shardeck snapshot repo add NAME --location PATH (a folder under path.repo)', tone: 'yellow' };
  return { text: `${repos.length === 1 ? 'repository' : 'repositories'}: ${repos.map(repositoryLine).join(', ')}` };
}

/** The table's empty text: no repository, or a repository without snapshots yet. */
export function emptySnapshotsText(repos: readonly SnapshotRepository[]): string {
  return repos.length ? 'no snapshot yet: shardeck snapshot create REPO' : 'no repository, so no snapshot';
}

/** The selected snapshot: its start and end in full, its indices, then each failed shard with its reason. */
export function snapshotDetails(s: SnapshotInfo): Line[] {
  return [
    {
      text: `${s.repository}/${s.name}: ${s.state}, ${formatTime(s.startMs)} to ${formatTime(s.endMs)}, shards ${formatCount(s.shards.ok)}/${formatCount(s.shards.total)} ok${s.includeGlobalState ? ', with the global state' : ''}`,
      tone: stateTone(s.state),
    },
    { text: `indices: ${s.indices.join(', ') || '(none)'}` },
    ...failureLines(s),
  ];
}

/** Something running, with its percentage for a bar: a snapshot being taken or a shard being restored. */
export interface RunningLine extends Line {
  percent: number;
}

/** `width`: the columns a line has (a restore's line keeps its rate and time left in them, recoveryLine). */
export function runningLines(snapshots: readonly SnapshotProgress[], restores: readonly ShardRecovery[], width = Infinity): RunningLine[] {
  return [
    ...snapshots.map((p) => ({
      ...progressLine(p),
      text: `snapshot ${p.repository}/${progressLine(p).text}`,
      percent: snapshotPercent(p),
    })),
    ...restores.map((r) => ({
      ...recoveryLine(r, width, `restore ${r.source ? `${r.source.snapshot}: ` : ''}`),
      percent: recoveryPercent(r),
    })),
  ];
}

/** Which snapshots hold a whole copy of the index highlighted in the Indices pane. */
export function holdingLine(index: string | undefined, snapshots: readonly SnapshotInfo[]): Line | undefined {
  if (!index) return undefined;
  const held = holdingIndex(snapshots, index);
  const tone: Tone | undefined = held.length ? undefined : 'yellow';
  return {
    text: held.length
      ? `${index} (Indices pane) is held by ${held.map((s) => `${s.repository}/${s.name}`).join(', ')}`
      : `${index} (Indices pane) is in no snapshot`,
    tone,
  };
}
