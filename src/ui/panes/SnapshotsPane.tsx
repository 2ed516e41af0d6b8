// Snapshots: the repositories, every snapshot newest first (state, indices, shards ok/failed, start,
// duration) with the selected one's indices and failure reasons below, what runs now (a snapshot
// being taken, a restore's shards) with a bar, and which snapshots hold the index highlighted in
// the Indices pane.
import React from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import { fitText } from '../../domain/text/table';
import {
  emptySnapshotsText,
  holdingLine,
  repositoriesLine,
  runningLines,
  snapshotDetails,
  snapshotKey,
  snapshotSearchText,
  snapshotsInfo,
  SNAPSHOT_COLUMNS,
  SNAPSHOT_SORT_KEYS,
} from '../../domain/panes/snapshots';
import type { Line } from '../../domain/snapshots';
import { PANE_SPECS } from '../../store/panes';
import { useConsole, useUi } from '../app/context';
import { Bar } from '../components/Bar';
import { DataTable } from '../components/DataTable';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { colourOf } from '../theme';
import { FullNameLine, useCutNames, useSelected, useTableKeys, useTableModel, DetailLines } from './table';

const BAR_WIDTH = 12;
/** The columns a running line's text has beside its bar. */
const runTextWidth = (width: number) => Math.max(1, width - BAR_WIDTH - 3);

export function SnapshotsPane({ width, height }: { width: number; height: number }) {
  const { repos, list, running, restores } = useConsole((s) => ({
    repos: s.snapshots.snapshotRepositories,
    list: s.snapshots.snapshots,
    running: s.snapshots.runningSnapshots,
    restores: s.snapshots.restores,
  }));
  const highlighted = useUi((s) => s.selection.indices?.index);
  const snaps = [repos, list, running, restores];
  const body = bodyHeight(height, snaps);
  const top: Line[] = repos.data ? [repositoriesLine(repos.data)] : [];
  const holding = list.data ? holdingLine(highlighted, list.data) : undefined;
  if (holding) top.push(holding);
  // What runs comes first: at most a third of the body, the rest says how many more.
  const runs = runningLines(running.data ?? [], restores.data ?? [], runTextWidth(width));
  const runRoom = Math.min(runs.length, Math.max(1, Math.floor(body / 3)));
  const shownRuns = runs.length > runRoom ? runs.slice(0, runRoom - 1) : runs;
  const moreRuns = runs.length - shownRuns.length;
  const runHeight = runs.length ? shownRuns.length + (moreRuns ? 1 : 0) : 0;
  const cut = useCutNames(list.data, SNAPSHOT_COLUMNS, width);
  const full = cut.length ? 1 : 0;
  const above = top.length + runHeight;
  // The details (indices, failures) get up to 4 lines under the table when there is room.
  const room = Math.max(0, Math.min(4, body - above - 3 - full - Math.min(list.data?.length ?? 1, body - above - 7)));
  const rowsHigh = Math.max(1, body - above - 1 - full - (room ? room + 1 : 0));
  const model = useTableModel('snapshots', list.data, SNAPSHOT_SORT_KEYS, snapshotSearchText, snapshotKey, rowsHigh);
  useTableKeys('snapshots', 'snapshots', model, SNAPSHOT_SORT_KEYS.length);
  const sel = model.rows[model.cursor];
  useSelected('snapshots', sel ? { repository: sel.repository, snapshot: sel.name } : undefined);
  const info = list.data ? snapshotsInfo(list.data.length, repos.data?.length ?? 0) : '';
  return (
    <PaneFrame title={PANE_SPECS.snapshots.title} info={info} snaps={snaps} width={width} height={height}>
      <Box flexDirection="column">
        {top.map((l) => (
          <Text key={l.text} color={colourOf(l.tone)}>
            {fitText(l.text, width)}
          </Text>
        ))}
        {shownRuns.map((l, i) => (
          <Box key={i}>
            <Bar percent={l.percent} width={BAR_WIDTH} tone={l.tone ?? 'yellow'} />
            <Text color={colourOf(l.tone)}> {fitText(l.text, runTextWidth(width))}</Text>
          </Box>
        ))}
        {moreRuns ? <Text dimColor>{`… ${moreRuns} more running`}</Text> : null}
        <DataTable
          {...model}
          columns={SNAPSHOT_COLUMNS}
          height={rowsHigh}
          width={width}
          empty={list.data && repos.data ? emptySnapshotsText(repos.data) : ''}
        />
        <FullNameLine row={sel} cut={cut} width={width} />
        {sel ? <DetailLines lines={snapshotDetails(sel)} width={width} room={room} /> : null}
      </Box>
    </PaneFrame>
  );
}
