// Shards: index, shard, primary/replica, state, node, size and why an unassigned shard is
// unassigned. 'u' narrows to the shards that are not STARTED.
import React, { useMemo } from 'react';
import { Box } from 'ink';
import { shardLines, shardsInfo, SHARD_COLUMNS, SHARD_SORT_KEYS, shardSearchText, shardKey } from '../../domain/panes/shards';
import { PANE_SPECS } from '../../store/panes';
import { useConsole, useUi } from '../app/context';
import { DataTable } from '../components/DataTable';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { FilterLine, filterLines, FullNameLine, useCutNames, useSelected, useTableKeys, useTableModel } from './table';

export function ShardsPane({ width, height }: { width: number; height: number }) {
  const shards = useConsole((s) => s.snapshots.shards);
  const delayed = useConsole((s) => s.snapshots.health.data?.delayedUnassignedShards ?? 0);
  const { problemsOnly, filtering, filter } = useUi((s) => ({
    problemsOnly: s.problemsOnly,
    filtering: s.filtering,
    filter: s.tables.shards.filter,
  }));
  const rows = useMemo(() => shardLines(shards.data, problemsOnly), [shards.data, problemsOnly]);
  const snaps = [shards];
  const cut = useCutNames(rows, SHARD_COLUMNS, width);
  const rowsHigh = Math.max(1, bodyHeight(height, snaps) - filterLines(filtering, filter) - 1 - (cut.length ? 1 : 0));
  const model = useTableModel('shards', rows, SHARD_SORT_KEYS, shardSearchText, shardKey, rowsHigh);
  useTableKeys('shards', 'shards', model, SHARD_SORT_KEYS.length, { 'shards.toggleProblems': 'problemsOnly' });
  const sel = model.rows[model.cursor];
  useSelected('shards', sel ? { index: sel.index, shard: sel.shard, primary: sel.primary, node: sel.node } : undefined);
  const info = shardsInfo(model.rows.length, problemsOnly, shards.data, delayed);
  return (
    <PaneFrame title={PANE_SPECS.shards.title} info={info} snaps={snaps} width={width} height={height}>
      <Box flexDirection="column">
        <FilterLine pane="shards" width={width} />
        <DataTable
          {...model}
          columns={SHARD_COLUMNS}
          height={rowsHigh}
          width={width}
          empty={shards.data ? (problemsOnly ? 'no problem shards: every shard is STARTED' : 'no shards') : ''}
        />
        <FullNameLine row={sel} cut={cut} width={width} />
      </Box>
    </PaneFrame>
  );
}
