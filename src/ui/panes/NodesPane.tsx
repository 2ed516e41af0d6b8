// Nodes: heap used/max with a bar, heap max against the machine's RAM (seed, Limits: at most 50% of
// RAM, never above 32 GB) and open scroll contexts against search.max_open_scroll_context.
import React, { useMemo } from 'react';
import { Box, Text } from 'ink';
import { fitText } from '../../domain/table';
import { nodeLines, nodeVerdict, NODE_COLUMNS, NODE_SORT_KEYS, nodeSearchText } from '../../domain/panes/nodes';
import { PANE_SPECS } from '../../store/panes';
import { useConsole } from '../app/context';
import { DataTable } from '../components/DataTable';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { colourOf } from '../theme';
import { useSelected, useTableKeys, useTableModel } from './table';

export function NodesPane({ width, height }: { width: number; height: number }) {
  const { nodes, search, settings } = useConsole((s) => ({ nodes: s.snapshots.nodes, search: s.snapshots.nodeSearch, settings: s.snapshots.settings }));
  const lines = useMemo(
    () => (nodes.data ? nodeLines(nodes.data, search.data, settings.data?.maxOpenScrollContext ?? null) : undefined),
    [nodes.data, search.data, settings.data],
  );
  const snaps = [nodes, search, settings];
  // Under the table: two lines on the selected node.
  const rowsHigh = Math.max(1, bodyHeight(height, snaps) - 1 - 3);
  const model = useTableModel('nodes', lines, NODE_SORT_KEYS, nodeSearchText, rowsHigh);
  useTableKeys('nodes', 'nodes', model.rows.length, rowsHigh, NODE_SORT_KEYS.length);
  const sel = model.rows[model.cursor];
  useSelected('nodes', sel ? { node: sel.name } : undefined);
  return (
    <PaneFrame title={PANE_SPECS.nodes.title} info={`${model.rows.length} nodes · * master`} snaps={snaps} width={width} height={height}>
      <Box flexDirection="column">
        <DataTable
          {...model}
          columns={NODE_COLUMNS}
          height={rowsHigh}
          width={width}
          rowKey={(r) => r.id}
          empty={nodes.data ? 'no nodes' : ''}
        />
        {sel ? (
          <Box flexDirection="column" marginTop={1}>
            {nodeVerdict(sel).map((l) => (
              <Text key={l.text} color={colourOf(l.tone)}>
                {fitText(`${sel.name}: ${l.text}`, width)}
              </Text>
            ))}
          </Box>
        ) : null}
      </Box>
    </PaneFrame>
  );
}
