// Indices: health, status, docs, deleted docs, size, primaries/replicas, blocks and, when signed in
// to the platform, the project behind service_v9_<project> indices. Sortable, filterable, dot
// indices hidden until '.' is pressed. Enter opens the index detail of the row (IndexDetailView),
// drawn here in place of the table until Esc.
import React, { useEffect, useMemo, useState } from 'react';
import { Box } from 'ink';
import {
  indexColumns,
  indexLinesAgain,
  indicesInfo,
  type IndexLinesMemo,
  INDEX_SORT_KEYS,
  indexSearchText,
  projectsWithoutIndex,
} from '../../domain/panes/indices';
import type { IndexBlocks } from '../../domain/types';
import { marksPresent, toggleMark } from '../../domain/console/marks';
import { PANE_SPECS } from '../../store/panes';
import { openIndexDetail } from '../../store/index-detail';
import { useConsole, useConsoleContext, useUi } from '../app/context';
import { useKeymap } from '../app/use-keymap';
import { commandFor } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { emptyDetailView } from '../state';
import { IndexDetailView } from './IndexDetailView';
import { DataTable } from '../components/DataTable';
import { bodyHeight, PaneFrame } from '../components/PaneFrame';
import { FilterLine, filterLines, FullNameLine, useCutNames, useSelected, useTableKeys, useTableModel } from './table';

const NO_BLOCKS: IndexBlocks[] = [];
const indexKey = (r: { name: string }) => r.name;

export function IndicesPane({ width, height }: { width: number; height: number }) {
  const detailOpen = useConsole((s) => s.indexDetail !== undefined);
  return detailOpen ? <IndexDetailView width={width} height={height} /> : <IndicesTable width={width} height={height} />;
}

function IndicesTable({ width, height }: { width: number; height: number }) {
  const { store, ui } = useConsoleContext();
  const keymap = useKeymap();
  const { indices, blocks, projects, templateVersion } = useConsole((s) => ({
    indices: s.snapshots.indices,
    blocks: s.snapshots.blocks,
    projects: s.projects,
    templateVersion: s.templateVersion,
  }));
  const { showSystem, filtering, filter, marks } = useUi((s) => ({
    showSystem: s.showSystem,
    filtering: s.filtering,
    filter: s.tables.indices.filter,
    marks: s.marks,
  }));
  // A marked index that is gone (deleted, renamed) is unmarked: no key may act on a name that left.
  useEffect(() => {
    if (!indices.data) return;
    const kept = marksPresent(ui.getState().marks, indices.data.map(indexKey));
    if (kept !== ui.getState().marks) ui.setState({ marks: [...kept] });
  }, [ui, indices.data]);
  // The last snapshot's lines: rows the new one repeats keep theirs. A cache the render reads
  // and writes on purpose (indexLinesAgain returns the same lines when nothing changed), held in
  // state's box so it lives as long as the pane.
  const [last] = useState<{ memo?: IndexLinesMemo }>(() => ({}));
  const lines = useMemo(() => {
    if (!indices.data) return undefined;
    // eslint-disable-next-line react-hooks/immutability -- the rows' cache is written here on purpose (see above)
    last.memo = indexLinesAgain(indices.data, blocks.data ?? NO_BLOCKS, projects, showSystem, templateVersion, last.memo);
    return last.memo.lines;
  }, [last, indices.data, blocks.data, projects, showSystem, templateVersion]);
  const withoutIndex = useMemo(
    () => projectsWithoutIndex(projects, indices.data, templateVersion),
    [projects, indices.data, templateVersion],
  );
  const hidden = (indices.data?.length ?? 0) - (lines?.length ?? 0);
  const snaps = [indices, blocks];
  const columns = indexColumns(projects !== undefined);
  // A name longer than its column is cut in the middle; the selected one is then shown whole on a
  // line under the table (the shared FullNameLine).
  const cut = useCutNames(lines, columns, width);
  // Under the frame's lines: the filter line, then the table's header.
  const rowsHigh = Math.max(1, bodyHeight(height, snaps) - filterLines(filtering, filter) - 1 - (cut.length ? 1 : 0));
  const model = useTableModel('indices', lines, INDEX_SORT_KEYS, indexSearchText, indexKey, rowsHigh);
  useTableKeys('indices', 'indices', model, INDEX_SORT_KEYS.length, { 'indices.toggleSystem': 'showSystem' });
  const selected = model.rows[model.cursor];
  useSelected('indices', selected ? { index: selected.name } : undefined);
  useKeyLayer('pane', (name) => {
    const id = commandFor(name, ['indices'], keymap)?.id;
    if (id === 'indices.clearMarks') {
      if (!ui.getState().marks.length) return false;
      ui.setState({ marks: [] });
      return true;
    }
    if (id === 'indices.mark') {
      // On a neighbour nobody chose (the highlighted index left): nothing marked until a look.
      if (!selected || model.gone !== undefined) return true;
      ui.setState((s) => ({ marks: toggleMark(s.marks, selected.name) }));
      // On to the next row, so Space Space Space marks a run of indices.
      model.nav.move('row.down');
      return true;
    }
    if (id !== 'indices.detail' || !selected) return false;
    // The highlight moved to a neighbour nobody chose: the footer says so; no detail until a look.
    if (model.gone !== undefined) return true;
    ui.setState({ detail: emptyDetailView() });
    openIndexDetail(store, selected.name);
    return true;
  });
  const info = indicesInfo(model.rows.length, indices.data?.length ?? 0, hidden, showSystem, withoutIndex);
  return (
    <PaneFrame title={PANE_SPECS.indices.title} info={info} snaps={snaps} width={width} height={height}>
      <Box flexDirection="column">
        <FilterLine pane="indices" width={width} />
        <DataTable
          {...model}
          columns={columns}
          marked={marks.length ? (r) => marks.includes(r.name) : undefined}
          height={rowsHigh}
          width={width}
          empty={indices.data ? (model.filter ? `no index matches "${model.filter}"` : 'no indices') : ''}
        />
        <FullNameLine row={selected} cut={cut} width={width} />
      </Box>
    </PaneFrame>
  );
}
