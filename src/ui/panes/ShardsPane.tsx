// Shards: index, shard, primary/replica, state, node, size and why an unassigned shard is
// unassigned. 'u' narrows to the shards that are not STARTED. Under the table, while shards
// initialize or relocate, the active recoveries with a bar each (domain/nodes/shard-recovery.ts).
import React, { useMemo } from 'react';
import { Box } from 'ink';
import { shardLines, shardsInfo, SHARD_COLUMNS, SHARD_SORT_KEYS, shardSearchText, shardKey } from '../../domain/panes/shards';
import { PANE_SPECS } from '../../store/panes';
import { useConsole, useUi } from '../app/context';
import { DataTable } from '../components/DataTable';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { FilterLine, filterLines, FullNameLine, useCutNames, useSelected, useTableKeys, useTableModel } from './table';
import { recoverySection } from '../../domain/nodes/shard-recovery';
import { Bar } from '../components/Bar';
import { Text } from '../components/Text';

export function ShardsPane({ width, height }: { width: number; height: number }) {
  const shards = useConsole((s) => s.snapshots.shards);
  const health = useConsole((s) => s.snapshots.health);
  const recoveries = useConsole((s) => s.snapshots.recoveries);
  const delayed = health.data?.delayedUnassignedShards ?? 0;
  const { problemsOnly, filtering, filter } = useUi((s) => ({
    problemsOnly: s.problemsOnly,
    filtering: s.filtering,
    filter: s.tables.shards.filter,
  }));
  const rows = useMemo(() => shardLines(shards.data, problemsOnly), [shards.data, problemsOnly]);
  const snaps = [shards];
  const cut = useCutNames(rows, SHARD_COLUMNS, width);
  // Read only while the health says shards initialize or relocate (domain/panes.ts): older data is not shown.
  const recovering = (health.data?.initializingShards ?? 0) + (health.data?.relocatingShards ?? 0) > 0;
  const section = recovering
    ? recoverySection(recoveries.data ?? [], width, Math.max(0, Math.min(height >= 30 ? 9 : 5, bodyHeight(height, snaps) - 8)))
    : [];
  const rowsHigh = Math.max(1, bodyHeight(height, snaps) - filterLines(filtering, filter) - 1 - (cut.length ? 1 : 0) - section.length);
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
        {section.map((l, i) =>
          'text' in l ? (
            <Text key={i} wrap="truncate" dimColor={l.tone === 'dim'}>
              {l.text}
            </Text>
          ) : (
            <Text key={i} wrap="truncate">
              {l.before}
              <Bar percent={l.percent} width={l.barWidth} tone="green" />
              {l.after}
            </Text>
          ),
        )}
      </Box>
    </PaneFrame>
  );
}
