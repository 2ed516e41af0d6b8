// Shards: index, shard, primary/replica, state, node, size and why an unassigned shard is
// unassigned. 'u' narrows to the shards that are not STARTED.
import React, { useMemo } from 'react';
import { Box } from 'ink';
import type { ShardRow } from '../../domain/types';
import { formatBytes, type Tone } from '../../domain/format';
import type { SortKey } from '../../domain/table';
import { useConsole, useUi } from '../app/context';
import { DataTable, type Column } from '../components/DataTable';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { FilterLine, filterLines, useSelected, useTableKeys, useTableModel } from './table';

export function shardTone(s: ShardRow): Tone {
  if (s.state === 'STARTED') return 'green';
  // A missing primary loses data access (red); a missing replica loses redundancy (yellow).
  if (s.state === 'UNASSIGNED') return s.primary ? 'red' : 'yellow';
  return 'yellow';
}

const STATE_ORDER: Record<string, number> = { UNASSIGNED: 0, INITIALIZING: 1, RELOCATING: 2, STARTED: 3 };

const SORT_KEYS: SortKey<ShardRow>[] = [
  { title: 'index', value: (r) => `${r.index}\u0000${String(r.shard).padStart(6, '0')}${r.primary ? 'p' : 'r'}` },
  { title: 'state', value: (r) => STATE_ORDER[r.state] ?? 1 },
  { title: 'node', value: (r) => r.node ?? '' },
  { title: 'size', value: (r) => r.storeBytes ?? 0 },
];

const textOf = (r: ShardRow) => `${r.index} ${r.state} ${r.node ?? ''} ${r.unassignedReason ?? ''}`;

const COLUMNS: Column<ShardRow>[] = [
  { title: 'index', width: null, text: (r) => r.index },
  { title: 'shard', width: 5, align: 'right', text: (r) => String(r.shard) },
  { title: 'p/r', width: 3, text: (r) => (r.primary ? 'p' : 'r') },
  { title: 'state', width: 12, text: (r) => r.state, tone: shardTone },
  { title: 'node', width: 12, text: (r) => r.node ?? '-' },
  { title: 'size', width: 8, align: 'right', text: (r) => formatBytes(r.storeBytes) },
  { title: 'reason', width: 16, text: (r) => r.unassignedReason ?? '' },
];

export function ShardsPane({ width, height }: { width: number; height: number }) {
  const shards = useConsole((s) => s.snapshots.shards);
  const { problemsOnly, filtering, filter } = useUi((s) => ({ problemsOnly: s.problemsOnly, filtering: s.filtering, filter: s.tables.shards.filter }));
  const rows = useMemo(() => (problemsOnly ? shards.data?.filter((s) => s.state !== 'STARTED') : shards.data), [shards.data, problemsOnly]);
  const snaps = [shards];
  const rowsHigh = Math.max(1, bodyHeight(height, snaps) - filterLines(filtering, filter) - 1);
  const model = useTableModel('shards', rows, SORT_KEYS, textOf, rowsHigh);
  useTableKeys('shards', 'shards', model.rows.length, rowsHigh, SORT_KEYS.length, { 'shards.toggleProblems': 'problemsOnly' });
  const sel = model.rows[model.cursor];
  useSelected('shards', sel ? { index: sel.index, shard: sel.shard, primary: sel.primary, node: sel.node } : undefined);
  const unassigned = shards.data?.filter((s) => s.state === 'UNASSIGNED').length ?? 0;
  const info = `${model.rows.length} shards${problemsOnly ? ' (problems only: u)' : ''} · ${unassigned} unassigned`;
  return (
    <PaneFrame title="Shards" info={info} snaps={snaps} width={width} height={height}>
      <Box flexDirection="column">
        <FilterLine pane="shards" width={width} />
        <DataTable
          {...model}
          columns={COLUMNS}
          height={rowsHigh}
          width={width}
          rowKey={(r) => `${r.index}/${r.shard}/${r.primary ? 'p' : 'r'}/${r.node ?? ''}`}
          empty={shards.data ? (problemsOnly ? 'no problem shards: every shard is STARTED' : 'no shards') : ''}
        />
      </Box>
    </PaneFrame>
  );
}
