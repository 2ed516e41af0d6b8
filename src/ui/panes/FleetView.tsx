// The Fleet view (F from any pane): every saved profile's cluster in one table, worst first,
// read in the background while the view is open (services/fleet.ts). Enter leaves this console
// for the selected profile's; Esc or F goes back to the pane.
import React, { useEffect, useState } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { fleetColumns, fleetDetail } from '../../domain/fleet';
import { formatAge } from '../../domain/format';
import { clampViewport, fitText } from '../../domain/table';
import { commandFor } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { useConsoleContext, useNow } from '../app/context';
import { useKeymap } from '../app/use-keymap';
import { DataTable } from '../components/DataTable';

export function FleetView({ width, height }: { width: number; height: number }) {
  const { fleet } = useConsoleContext();
  if (!fleet) {
    return (
      <Box flexDirection="column">
        <Text bold>Fleet</Text>
        <Text>no fleet here: the console (shardeck) reads the saved profiles; or run shardeck fleet</Text>
      </Box>
    );
  }
  return <FleetTable width={width} height={height} />;
}

function FleetTable({ width, height }: { width: number; height: number }) {
  const { fleet, store } = useConsoleContext();
  const f = fleet!;
  const { rows, intervalMs, startedAt, fullAt } = useStore(
    f.store,
    useShallow((s) => ({ rows: s.rows, intervalMs: s.intervalMs, startedAt: s.startedAt, fullAt: s.fullAt })),
  );
  const current = useStore(store, (s) => s.connection.profile);
  const keymap = useKeymap();
  const [view, setView] = useState({ cursor: 0, offset: 0 });
  useEffect(() => {
    f.start();
    return () => f.stop();
  }, [f]);
  // Title, table header, the selected row's detail line.
  const rowsHigh = Math.max(1, height - 3);
  const move = (delta: number) => setView((v) => clampViewport(Math.max(0, Math.min(rows.length - 1, v.cursor + delta)), v.offset, rows.length, rowsHigh));
  useKeyLayer('dialog', (name) => {
    const cmd = commandFor(name, ['fleet', 'table'], keymap)?.id;
    if (cmd === 'fleet.connect') {
      const sel = rows[view.cursor];
      if (sel && sel.profile !== current && !sel.profile.startsWith('(')) f.open(sel.profile);
      return true;
    }
    const step: Record<string, number> = { 'row.up': -1, 'row.down': 1, 'row.pageUp': -rowsHigh, 'row.pageDown': rowsHigh, 'row.first': -1e9, 'row.last': 1e9 };
    if (cmd && step[cmd] !== undefined) {
      move(step[cmd]);
      return true;
    }
    return false;
  });
  const now = useNow((t) => rows.map((r) => (r.fetchedAt === undefined ? '' : formatAge(t - r.fetchedAt))).join());
  const cursor = Math.min(view.cursor, Math.max(0, rows.length - 1));
  const sel = rows[cursor];
  const waiting = rows.filter((r) => r.status === 'pending').length;
  const first = fullAt && startedAt ? ` · full in ${fullAt - startedAt} ms` : waiting ? ` · ${waiting} to answer` : '';
  const info = `Fleet · on ${current} · ${rows.length} clusters worst first${first} · every ${formatAge(intervalMs)}`;
  return (
    <Box flexDirection="column" width={width}>
      <Text bold>{fitText(info, width)}</Text>
      <DataTable
        columns={fleetColumns(now)}
        rows={rows}
        cursor={cursor}
        offset={view.offset}
        height={rowsHigh}
        width={width}
        rowKey={(r) => r.profile}
        empty="no saved profiles: save one per cluster with shardeck profiles save NAME --url URL"
      />
      <Text dimColor>{sel ? fitText(fleetDetail(sel), width) : ''}</Text>
    </Box>
  );
}
