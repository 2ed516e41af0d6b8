// Nodes: heap used/max with a bar, -Xms against -Xmx, GC, CPU, load, the fullest data path, and (as
// wide as the terminal allows) fielddata, RAM, heap max against RAM (seed, Limits: at most 50% of
// RAM, never above 32 GB) and open scroll contexts against search.max_open_scroll_context. Under
// the table: the selected node's verdict and statistics; `c` shows the requests as curl lines.
import React, { useMemo } from 'react';
import { Box } from 'ink';
import {
  nodeColumnsFor,
  nodeDetails,
  nodeLines,
  nodeMaintenanceLines,
  nodeVerdict,
  NODE_SORT_KEYS,
  nodeSearchText,
  pressureLines,
  cpuLoadText,
} from '../../domain/panes/nodes';
import { sparkLines } from '../../domain/nodes/node-history';
import { hotSpotLine, hotSpots } from '../../domain/nodes/hot-spots';
import { PANE_SPECS } from '../../store/panes';
import { useConsole, useUi } from '../app/context';
import { DataTable } from '../components/DataTable';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { useCurlLines } from './curl';
import { countOf, type Tone } from '../../domain/text/format';
import type { ResourceName } from '../../store/console';

const nodeKey = (r: { id: string }) => r.id;
// The short lines first: the statistics line (~2,000 characters with its filter) wraps over many rows.
const NODE_READS: ResourceName[] = ['nodes', 'nodeJvm', 'nodeStats'];
import { FullNameLine, useCutNames, useSelected, useTableKeys, useTableModel, DetailLines, WrappedLines } from './table';

export function NodesPane({ width, height }: { width: number; height: number }) {
  const { nodes, settings, figures, jvm, history, balance, shutdown, allocation } = useConsole((s) => ({
    nodes: s.snapshots.nodes,
    settings: s.snapshots.settings,
    figures: s.snapshots.nodeStats,
    jvm: s.snapshots.nodeJvm,
    history: s.nodeHistory,
    // Not in the frame's snaps: their failure (no module, no privilege, before 8.6) is never shown as an error.
    balance: s.snapshots.desiredBalance,
    shutdown: s.snapshots.nodeShutdown,
    allocation: s.snapshots.allocation,
  }));
  const { showCurl, showPressure } = useUi((s) => ({ showCurl: s.showCurl, showPressure: s.showPressure }));
  const lines = useMemo(
    () =>
      nodes.data
        ? nodeLines(nodes.data, figures.data?.search, settings.data?.maxOpenScrollContext ?? null, figures.data?.stats, jvm.data)
        : undefined,
    [nodes.data, figures.data, settings.data, jvm.data],
  );
  const pressure = figures.data?.pressure;
  const snaps = [nodes, settings, figures, jvm];
  const curl = useCurlLines(NODE_READS);
  const body = bodyHeight(height, snaps);
  // Under the table, after a blank line: the selected node's verdict and statistics (or the curl
  // lines), as many as leave room for a few rows.
  const minRows = Math.max(1, Math.min(lines?.length ?? 1, Math.floor(body / 2)));
  const columns = nodeColumnsFor(width);
  const cut = useCutNames(lines, columns, width);
  // The pressure wants its 3 lines and 4 of history: room for them before table rows beyond the first few.
  const room = Math.max(0, Math.min(showPressure ? 8 : 10, body - 2 - minRows - (cut.length ? 1 : 0)));
  const rowsHigh = Math.max(1, body - 1 - (cut.length ? 1 : 0) - (room ? room + 1 : 0));
  const model = useTableModel('nodes', lines, NODE_SORT_KEYS, nodeSearchText, nodeKey, rowsHigh);
  useTableKeys('nodes', 'nodes', model, NODE_SORT_KEYS.length, { 'nodes.curl': 'showCurl', 'nodes.pressure': 'showPressure' });
  const sel = model.rows[model.cursor];
  useSelected('nodes', sel ? { node: sel.name } : undefined);
  // Hot spots (shards, indices on disk, write load at 2x the average), over every node: not the selected one's.
  const hot = useMemo(
    () => (allocation.data ? hotSpotLine(hotSpots(allocation.data, pressure), width) : null),
    [allocation.data, pressure, width],
  );
  const below: { text: string; tone?: Tone }[] = !sel
    ? []
    : showPressure
      ? [
          { text: `${sel.name}: ${cpuLoadText(sel.stats)} · +N: since the last poll` },
          ...pressureLines(pressure?.find((p) => p.id === sel.id) ?? pressure?.find((p) => p.name === sel.name)),
          ...sparkLines(history?.[sel.name] ?? [], width).map((text) => ({ text })),
        ]
      : [
          ...(hot ? [hot] : []),
          ...nodeVerdict(sel).map((l) => ({ ...l, text: `${sel.name}: ${l.text}` })),
          ...nodeMaintenanceLines(sel, balance, shutdown.data, shutdown.fetchedAt ?? 0).map((l) => ({
            ...l,
            text: `${sel.name}: ${l.text}`,
          })),
          ...nodeDetails(sel).map((l) => ({ ...l, text: `  ${l.text}` })),
        ];
  return (
    <PaneFrame
      title={PANE_SPECS.nodes.title}
      info={`${countOf(model.rows.length, 'node')} · * master${shutdown.data?.length ? ` · ${countOf(shutdown.data.length, 'shutdown record')}` : ''}`}
      snaps={snaps}
      width={width}
      height={height}
    >
      <Box flexDirection="column">
        <DataTable {...model} columns={columns} height={rowsHigh} width={width} empty={nodes.data ? 'no nodes' : ''} />
        <FullNameLine row={sel} cut={cut} width={width} />
        {showCurl && room ? (
          <WrappedLines lines={curl} room={room} width={width} />
        ) : (
          <DetailLines lines={below} width={width} room={room} />
        )}
      </Box>
    </PaneFrame>
  );
}
