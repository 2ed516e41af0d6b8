// What the table panes share: the view (filter, sort, cursor) kept in the UI store, computed once
// per snapshot with domain/text/table.ts, the table keys of the keymap, and the filter prompt.
import React, { useEffect, useMemo, useRef } from 'react';
import { Box } from 'ink';
import { Text } from '../components/Text';
import type { Tone } from '../../domain/text/format';
import { colourOf } from '../theme';
import type { Scope } from '../../keys/keymap';
import {
  cutNameColumns,
  filterPrompt,
  filterRows,
  fitText,
  fullNameText,
  searchTexts,
  shownDescending,
  sortRowsAgain,
  type Column,
  type SortedRows,
  type SortKey,
} from '../../domain/text/table';
import { navList, NAV_START } from '../../domain/console/list-nav';
import { wholeLinesIn } from '../../domain/text/text';
import { useConsoleContext, useUi } from '../app/context';
import { useKeymap } from '../app/use-keymap';
import { commandFor } from '../input/keys';
import { useKeyLayer } from '../input/router';
import { navFields, useStoredListNav, type ListNavControl } from '../input/use-list-nav';
import type { Selection } from '../../domain/panes';
import { patchTable, setSelection, type TablePane } from '../state';

export interface TableModel<T> {
  /** The pane: its table draws the columns chosen for it (V). */
  pane: TablePane;
  rows: readonly T[];
  cursor: number;
  offset: number;
  sortTitle: string | undefined;
  descending: boolean;
  filter: string;
  /** The item's key (index name, shard id, node id...): the cursor follows it. */
  rowKey: (row: T) => string;
  /** The item chosen disappeared and the highlight is on its neighbour: the one gone. */
  gone: string | undefined;
  nav: ListNavControl;
}

/**
 * Sorts `rows` when the snapshot or the sort changes, lower-cases their texts once when a filter
 * is first typed, filters on each filter change, and finds the selected item (by `rowKey`) in the
 * result. Cursor moves recompute none of it.
 */
export function useTableModel<T>(
  pane: TablePane,
  rows: readonly T[] | undefined,
  keys: readonly SortKey<T>[],
  textOf: (row: T) => string,
  rowKey: (row: T) => string,
  height: number,
): TableModel<T> {
  const { ui } = useConsoleContext();
  const t = useUi((s) => s.tables[pane]);
  // The last sort: the next snapshot's sort starts from its order (nearly sorted already).
  const last = useRef<SortedRows<T> | undefined>(undefined);
  const sorted = useMemo(() => {
    // textOf and keys are module constants of each pane.
    // eslint-disable-next-line react-hooks/refs -- the last sort is a cache across snapshots, not what is drawn
    const next = sortRowsAgain(rows ?? [], keys, t.sortKey, t.descending, last.current);
    // eslint-disable-next-line react-hooks/refs -- (the same cache)
    last.current = next;
    return next.output;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- textOf and keys are module constants of each pane
  }, [rows, t.sortKey, t.descending]);
  const filtering = t.filter.trim() !== '';
  // eslint-disable-next-line react-hooks/exhaustive-deps -- textOf is a module constant of each pane
  const texts = useMemo(() => (filtering ? searchTexts(sorted, textOf) : []), [sorted, filtering]);
  const shown = useMemo(() => filterRows(sorted, t.filter, () => texts), [sorted, texts, t.filter]);
  const nav = useStoredListNav(
    t,
    () => ui.getState().tables[pane],
    (n) => patchTable(ui, pane, n),
    navList(shown, rowKey, height),
  );
  const { cursor, offset, gone } = nav.nav;
  return {
    pane,
    rows: shown,
    cursor,
    offset,
    gone,
    nav,
    rowKey,
    sortTitle: keys[t.sortKey % keys.length]?.title,
    // What the arrow shows: the order of the values on screen (a largest-first key reads ↓ unreversed).
    descending: shownDescending(keys[t.sortKey % keys.length], t.descending),
    filter: t.filter,
  };
}

/** A pane's own commands that flip a switch of the UI store (e.g. '.' shows dot indices). */
export type Toggles = Record<string, 'showSystem' | 'problemsOnly' | 'showCurl' | 'showPressure' | 'showPlatformJson' | 'showTaskDetail'>;

/**
 * The table keys (cursor, paging, sort, filter) for a pane, plus the pane's toggles (its commands
 * are resolved in `scope` first).
 */
export function useTableKeys<T>(pane: TablePane, scope: Scope, model: TableModel<T>, sortKeys: number, toggles: Toggles = {}): void {
  const { ui } = useConsoleContext();
  const keymap = useKeymap();
  useKeyLayer('pane', (name) => {
    const cmd = commandFor(name, [scope, 'table', 'list'], keymap);
    const t = ui.getState().tables[pane];
    if (name === 'escape' && t.filter) {
      patchTable(ui, pane, { filter: '', ...navFields(NAV_START) });
      return true;
    }
    if (!cmd) return false;
    if (model.nav.move(cmd.id)) return true;
    switch (cmd.id) {
      case 'table.sort':
        patchTable(ui, pane, { sortKey: (t.sortKey + 1) % Math.max(1, sortKeys), descending: false });
        return true;
      case 'table.sortReverse':
        patchTable(ui, pane, { descending: !t.descending });
        return true;
      case 'table.filter':
        ui.setState({ filtering: true });
        return true;
      default: {
        const flag = toggles[cmd.id];
        if (!flag) return false;
        ui.setState((s) => ({ [flag]: !s[flag] }));
        // A switch that changes which rows show: the highlighted item stays chosen if it still
        // shows; hidden, the first row (not a "selection moved" for an item they hid themselves).
        if (flag === 'showSystem' || flag === 'problemsOnly') patchTable(ui, pane, { gone: undefined, startIfGone: true });
        return true;
      }
    }
  });
}

/**
 * The filter line: while open it takes every key (printable keys type, Backspace deletes, Enter
 * keeps the filter, Esc clears it); rows narrow as the operator types.
 */
export function FilterLine({ pane, width }: { pane: TablePane; width: number }) {
  const { ui } = useConsoleContext();
  const { filtering, filter } = useUi((s) => ({ filtering: s.filtering, filter: s.tables[pane].filter }));
  useKeyLayer(
    'filter',
    (name, input) => {
      const cur = ui.getState().tables[pane].filter;
      if (name === 'return') ui.setState({ filtering: false });
      else if (name === 'escape') {
        ui.setState({ filtering: false });
        patchTable(ui, pane, { filter: '', ...navFields(NAV_START) });
      } else if (name === 'backspace') patchTable(ui, pane, { filter: cur.slice(0, -1), ...navFields(NAV_START) });
      // eslint-disable-next-line no-control-regex -- a control character is a key, never filter text
      else if (input.length >= 1 && !/[\x00-\x1f]/.test(input)) patchTable(ui, pane, { filter: cur + input, ...navFields(NAV_START) });
      return true;
    },
    filtering,
  );
  if (!filtering && !filter) return null;
  return <Text inverse={filtering}>{fitText(filterPrompt(filtering, filter), width)}</Text>;
}

/** Lines the filter line takes. */
export function filterLines(filtering: boolean, filter: string): number {
  return filtering || filter ? 1 : 0;
}

/** Publishes the row under the cursor for wizards (UI store `selection`). */
export function useSelected<K extends keyof Selection>(pane: K, value: Selection[K]): void {
  const { ui } = useConsoleContext();
  const key = JSON.stringify(value ?? null);
  // Keyed by content: a new snapshot with the same row under the cursor changes nothing.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by content (`key` stands for `value`)
  useEffect(() => setSelection(ui, pane, value), [ui, pane, key]);
}

/** The name columns cut now (domain/text/table.ts cutNameColumns), once per rows and width: one more line under the table when any. */
export function useCutNames<T>(rows: readonly T[] | undefined, columns: readonly Column<T>[], width: number): Column<T>[] {
  // eslint-disable-next-line react-hooks/exhaustive-deps -- columns: a module constant, or rebuilt from the width (its length says which)
  return useMemo(() => cutNameColumns(rows ?? [], columns, width), [rows, width, columns.length]);
}

/** The highlighted row's whole names under a table whose names are cut (nothing when none is). */
export function FullNameLine<T>({ row, cut, width }: { row: T | undefined; cut: readonly Column<T>[]; width: number }) {
  if (!cut.length) return null;
  return <Text dimColor>{fitText(fullNameText(row, cut), width)}</Text>;
}

/**
 * Long lines (curl, JSON) under a table: they wrap instead of being cut (what is shown must run as
 * shown) and the box cuts at `room` rows. Each line keeps its full height: shrunk by the layout, a
 * wrapped line's rows were drawn over the next line (a 2,000-character curl line over `_nodes/jvm`).
 */
export function WrappedLines({ lines, room, width }: { lines: readonly string[]; room: number; width: number }) {
  // A blank row above: the rest holds whole lines only.
  const rows = wholeLinesIn(lines, width, Math.max(0, room - 1));
  return (
    <Box flexDirection="column" marginTop={1} height={room} overflow="hidden">
      {rows.map((l, i) => (
        <Box key={i} flexShrink={0}>
          <Text wrap="truncate">{l}</Text>
        </Box>
      ))}
    </Box>
  );
}

/** The highlighted row's facts under a table: as many lines as there is room for, each cut to the width, in its tone. */
export function DetailLines({ lines, width, room }: { lines: readonly { text: string; tone?: Tone }[]; width: number; room: number }) {
  const shown = lines.slice(0, Math.max(0, room));
  if (!shown.length) return null;
  return (
    <Box flexDirection="column" marginTop={1}>
      {shown.map((l, i) => (
        <Text key={i} color={colourOf(l.tone)}>
          {fitText(l.text, width)}
        </Text>
      ))}
    </Box>
  );
}
