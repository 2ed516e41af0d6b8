// A windowed table: the caller hands over rows already filtered and sorted (domain/text/table.ts, once
// per snapshot); this renders the header and only the rows inside the viewport, so the cost of a
// frame depends on the terminal's height, not on the number of rows.
import React, { useEffect, useSyncExternalStore } from 'react';
import { Box } from 'ink';
import { Text } from './Text';
import { elasticWidths, fitText, headerCell, visibleRange, type Column } from '../../domain/text/table';
import { colourOf } from '../theme';
// A cell is one line: its data's line breaks and controls are escaped before it is measured.
import { displayText } from '../../domain/text/display-text';
import { applyColumnChoice } from '../../domain/console/columns';
import { useOptionalConsoleContext } from '../app/context';
import type { TablePane } from '../state';

export interface DataTableProps<T> {
  columns: Column<T>[];
  rows: readonly T[];
  cursor: number;
  offset: number;
  /** Rows of data that fit (the header line is extra). */
  height: number;
  width: number;
  /** Marks the sorted column's title. */
  sortTitle?: string;
  descending?: boolean;
  empty?: string;
  rowKey: (row: T) => string;
  /** A table pane's: its columns as chosen for it (V), and the ones declared told to the chooser. */
  pane?: TablePane;
  /** Rows marked (the Indices pane's Space): while any is, a gutter before the columns shows a mark on each. */
  marked?: (row: T) => boolean;
}

/** The gutter's width while rows are marked: the mark and a space. */
const GUTTER = 2;

const NO_STORE = () => () => undefined;

/** The pane's columns as the operator chose them (ui state `columns`); the declared ones told to the chooser. */
function useChosenColumns<T>(pane: TablePane | undefined, declared: Column<T>[]): Column<T>[] {
  const ui = useOptionalConsoleContext()?.ui;
  const choice = useSyncExternalStore(ui?.subscribe ?? NO_STORE, () => (pane && ui ? ui.getState().columns[pane] : undefined));
  const key = declared.map((c) => `${c.title}:${c.width}`).join('|');
  useEffect(() => {
    if (!pane || !ui) return;
    ui.setState((s) => ({ columnDefaults: { ...s.columnDefaults, [pane]: declared.map((c) => ({ title: c.title, width: c.width })) } }));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- told again only when the titles or widths change
  }, [pane, ui, key]);
  return applyColumnChoice(declared, choice);
}

export function DataTable<T>(props: DataTableProps<T>) {
  const p = { ...props, columns: useChosenColumns(props.pane, props.columns) };
  const { marked } = p;
  const gutter = marked && p.rows.some(marked) ? GUTTER : 0;
  const widths = elasticWidths(
    p.columns.map((c) => c.width),
    p.width - gutter,
  );
  const { start, end } = visibleRange({ cursor: p.cursor, offset: p.offset }, p.rows.length, p.height);
  const header = p.columns
    .map((c, i) => {
      const arrow = c.title === p.sortTitle ? (p.descending ? '↓' : '↑') : '';
      return headerCell(c.title, arrow, widths[i], c.align);
    })
    .join(' ');
  const visible = p.rows.slice(start, end);
  return (
    <Box flexDirection="column">
      <Text bold underline>
        {' '.repeat(gutter) + header}
      </Text>
      {visible.length === 0 ? <Text dimColor>{p.empty ?? 'no rows'}</Text> : null}
      {visible.map((row, i) => (
        <Text key={p.rowKey(row)} inverse={start + i === p.cursor} wrap="truncate">
          {gutter ? (
            <Text bold color={colourOf('magenta')}>
              {marked!(row) ? '* ' : '  '}
            </Text>
          ) : null}
          {p.columns.map((c, ci) => (
            <Text key={c.title} color={colourOf(c.tone?.(row))}>
              {(ci > 0 ? ' ' : '') + fitText(displayText(c.text(row)), widths[ci], c.align, c.cut)}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}
