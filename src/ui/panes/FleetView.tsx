// The Fleet view (F from any pane): every saved profile's cluster in one table, worst first,
// read in the background while the view is open (services/fleet.ts). Enter leaves this console
// for the selected profile's; Esc or F goes back to the pane.
import React, { useEffect, useState } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { fleetColumns, fleetDetail } from '../../domain/inspect/fleet';
import { formatAge } from '../../domain/text/format';
import { fitText } from '../../domain/text/table';
import { MOVE_OF_COMMAND, movedText, NAV_START, navList } from '../../domain/console/list-nav';
import { useListNav } from '../input/use-list-nav';
import { commandFor } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { useConsoleContext, useNow } from '../app/context';
import { useKeymap } from '../app/use-keymap';
import { DataTable } from '../components/DataTable';
import { colourOf } from '../theme';

const profileKey = (r: { profile: string }) => r.profile;

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
  useEffect(() => {
    f.start();
    return () => f.stop();
  }, [f]);
  // Title, table header, the selected row's detail line.
  const rowsHigh = Math.max(1, height - 3);
  // Worst first: a poll reorders the rows, and the cursor stays on the profile chosen.
  const nav = useListNav(navList(rows, profileKey, rowsHigh));
  // Until the operator moves, the highlight is the worst cluster (the first row): the rows fill in
  // over seconds, and nobody chose whichever profile happened to answer first.
  const [chosen, setChosen] = useState(false);
  const shown = chosen ? nav.nav : NAV_START;
  const cursor = shown.cursor;
  const sel = rows[cursor];
  useKeyLayer('dialog', (name) => {
    const cmd = commandFor(name, ['fleet', 'list'], keymap)?.id;
    if (cmd === 'fleet.connect') {
      // Not on a neighbour the operator did not choose (the profile chosen is gone).
      if (sel && shown.gone === undefined && sel.profile !== current && !sel.profile.startsWith('(')) f.open(sel.profile);
      return true;
    }
    if (!chosen && MOVE_OF_COMMAND[cmd ?? ''] !== undefined) {
      nav.reset(); // the first move starts from the row the operator sees highlighted
      setChosen(true);
    }
    return nav.move(cmd ?? '');
  });
  const now = useNow((t) => rows.map((r) => (r.fetchedAt === undefined ? '' : formatAge(t - r.fetchedAt))).join());
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
        offset={shown.offset}
        height={rowsHigh}
        width={width}
        rowKey={profileKey}
        empty="no saved profiles: save one per cluster with shardeck profiles save NAME --url URL"
      />
      {shown.gone !== undefined ? (
        <Text color={colourOf('yellow')}>{fitText(movedText(shown.gone, width), width)}</Text>
      ) : (
        <Text dimColor>{sel ? fitText(fleetDetail(sel), width) : ''}</Text>
      )}
    </Box>
  );
}
