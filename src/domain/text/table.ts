// Table math for the live panes, pure so it is tested with plain values: filter and sort once per
// snapshot, then slice the result to the rows that fit on screen (a 20,000-row table costs the
// renderer what a 20-row one does), and fit cell text to fixed column widths.
import type { Tone } from './format';
import { displayText } from './display-text';
import { middleEllipsis } from './text';
import { compareText } from './order';

export type SortValue = string | number;

export interface TableView {
  /** Case-insensitive substring; empty shows everything. */
  filter: string;
  /** Index into the table's sort keys. */
  sortKey: number;
  descending: boolean;
}

/** One column of a table pane: its title, width and how a row becomes its text and tone. */
export interface Column<T> {
  title: string;
  /** Fixed width in columns; null for the one elastic column that takes the rest. */
  width: number | null;
  align?: 'left' | 'right';
  text: (row: T) => string;
  tone?: (row: T) => Tone | undefined;
  /** Names cut in the middle (their distinct ends stay: logs-…-000017), other text at its end. */
  cut?: 'middle';
}

export interface SortKey<T> {
  title: string;
  value: (row: T) => SortValue;
  /** `value` is negated so the pane's order puts the largest first (longest running): its arrow reads ↓ then. */
  largestFirst?: boolean;
  /** Orders two rows as `value` would, without building a value per row (a composite key's string costs more than comparing its parts). */
  compare?: (a: T, b: T) => number;
}

/** The filter line: typing it (Enter keeps, Esc clears), or the filter kept. */
export function filterPrompt(typing: boolean, filter: string): string {
  return typing ? `/${filter}█  (Enter keep, Esc clear)` : `filter: ${filter}  (/ edit, Esc clear)`;
}

/** Rows sorted stably by one key. Once per snapshot or sort change: a filter keystroke does not sort. */
export function sortRows<T>(rows: readonly T[], keys: readonly SortKey<T>[], sortKey: number, descending: boolean): T[] {
  return sortRowsAgain(rows, keys, sortKey, descending).output;
}

/** A sort's input and result, kept so the next snapshot's sort starts from this order. */
export interface SortedRows<T> {
  input: readonly T[];
  output: T[];
  sortKey: number;
  descending: boolean;
  /** rank[i]: the position in `output` of input[i]. */
  rank: Int32Array;
}

/**
 * sortRows, starting from the order of the previous sort (`last`): the rows a new snapshot keeps
 * (the parser reuses unchanged rows, domain/parse.ts) at their old input position are laid out in
 * their old sorted order, the others after them, so the (stable, merging) sort finds long sorted
 * runs and a 100,000-row table with a few changed rows costs about one comparison per row instead
 * of n log n. The result is exactly sortRows' (ties go by input position either way).
 */
export function sortRowsAgain<T>(
  rows: readonly T[],
  keys: readonly SortKey<T>[],
  sortKey: number,
  descending: boolean,
  last?: SortedRows<T>,
): SortedRows<T> {
  const n = rows.length;
  const key = keys[sortKey % Math.max(1, keys.length)];
  const identity = () => Int32Array.from({ length: n }, (_, i) => i);
  if (!key) return { input: rows, output: rows.slice(), sortKey, descending, rank: identity() };
  const dir = descending ? -1 : 1;
  let order: number[];
  if (last && last.sortKey === sortKey && last.descending === descending) {
    // Sized once (typed, or filled by position): 100,000-row tables would otherwise grow each
    // array by copies, garbage in V8's large-object space on every poll (peak RSS, issue 29).
    const slots = new Int32Array(last.output.length).fill(-1);
    const fresh = new Int32Array(n);
    let nFresh = 0;
    for (let i = 0; i < n; i++) {
      if (i < last.input.length && last.input[i] === rows[i] && slots[last.rank[i]] < 0) slots[last.rank[i]] = i;
      else fresh[nFresh++] = i;
    }
    // Many misses: rows moved in the input (one added or removed before them), not changed; they
    // are found by identity (building that map costs more than a few changed rows would).
    if (nFresh > n / 16) {
      const rankOf = new Map<T, number>();
      for (let j = 0; j < last.input.length; j++) rankOf.set(last.input[j], last.rank[j]);
      let still = 0;
      for (let f = 0; f < nFresh; f++) {
        const i = fresh[f];
        const k = rankOf.get(rows[i]);
        // A row given twice takes its old place once.
        if (k !== undefined && slots[k] < 0) slots[k] = i;
        else fresh[still++] = i;
      }
      nFresh = still;
    }
    order = new Array<number>(n);
    let o = 0;
    for (let k = 0; k < slots.length; k++) if (slots[k] >= 0) order[o++] = slots[k];
    for (let f = 0; f < nFresh; f++) order[o++] = fresh[f];
  } else order = Array.from({ length: n }, (_, i) => i);
  // Each key is computed once (not O(n log n) times); positions are sorted, not decorated rows.
  const compare = key.compare;
  if (compare) order.sort((a, b) => dir * compare(rows[a], rows[b]) || a - b);
  else {
    const values = rows.map((r) => key.value(r));
    order.sort((a, b) => dir * compareValues(values[a], values[b]) || a - b);
  }
  const output: T[] = new Array(n);
  const rank = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    output[k] = rows[order[k]];
    rank[order[k]] = k;
  }
  return { input: rows, output, sortKey, descending, rank };
}

/** The row texts lower-cased once, so each filter keystroke is a plain substring scan. */
export function searchTexts<T>(rows: readonly T[], textOf: (row: T) => string): string[] {
  return rows.map((r) => textOf(r).toLowerCase());
}

/** The rows (already sorted, order kept) whose text contains the filter, case-insensitive. */
export function filterRows<T>(rows: readonly T[], filter: string, texts: () => readonly string[]): readonly T[] {
  const needle = filter.trim().toLowerCase();
  if (!needle) return rows;
  const t = texts();
  return rows.filter((_, i) => t[i].includes(needle));
}

/** Rows whose text contains the filter (case-insensitive), sorted stably by one key. */
export function viewRows<T>(rows: readonly T[], view: TableView, textOf: (row: T) => string, keys: readonly SortKey<T>[]): T[] {
  const sorted = sortRows(rows, keys, view.sortKey, view.descending);
  return [...filterRows(sorted, view.filter, () => searchTexts(sorted, textOf))];
}

/** Numbers by value, text by code unit (index and node names are ASCII; locale rules cost 10x). */
export function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return compareText(String(a), String(b));
}

export interface Viewport {
  /** Row index of the cursor, clamped to the rows. */
  cursor: number;
  /** First visible row. */
  offset: number;
}

/**
 * Keeps the cursor inside [0, total) and the viewport of `height` rows around it, moving the
 * viewport only as far as needed (the cursor does not jump to the middle while scrolling).
 */
export function clampViewport(cursor: number, offset: number, total: number, height: number): Viewport {
  if (total <= 0) return { cursor: 0, offset: 0 };
  const h = Math.max(1, height);
  const c = Math.max(0, Math.min(total - 1, cursor));
  let o = Math.max(0, Math.min(offset, Math.max(0, total - h)));
  if (c < o) o = c;
  if (c >= o + h) o = c - h + 1;
  return { cursor: c, offset: o };
}

/** The visible slice [start, end) of a table. */
export function visibleRange(v: Viewport, total: number, height: number): { start: number; end: number } {
  const start = Math.min(v.offset, Math.max(0, total));
  return { start, end: Math.min(total, start + Math.max(0, height)) };
}

/** Pads or cuts text to exactly `width` columns; a cut ends in "…" (or has it in the middle) so it does not look complete. */
export function fitText(text: string, width: number, align: 'left' | 'right' = 'left', cut: 'end' | 'middle' = 'end'): string {
  if (width <= 0) return '';
  if (cut === 'middle' && text.length > width) return middleEllipsis(text, width).padEnd(width);
  if (text.length > width) return width === 1 ? '…' : `${text.slice(0, width - 1)}…`;
  return align === 'right' ? text.padStart(width) : text.padEnd(width);
}

/** Whether the column's values go down the screen, as its arrow shows: a largest-first key sorted "ascending" does. */
export function shownDescending(key: Pick<SortKey<unknown>, 'largestFirst'> | undefined, descending: boolean): boolean {
  return descending !== Boolean(key?.largestFirst);
}

/**
 * A column's header cell: a sorted column's arrow always shows, its title cut first to make room
 * (the arrow hid behind "delete…" when the title did not fit).
 */
export function headerCell(title: string, arrow: string, width: number, align: 'left' | 'right' = 'left'): string {
  if (!arrow || title.length + arrow.length <= width) return fitText(title + arrow, width, align);
  const room = width - arrow.length;
  return fitText(`${room > 1 ? `${title.slice(0, room - 1)}…` : title.slice(0, Math.max(0, room))}${arrow}`, width, align);
}

/**
 * The name columns (cut in the middle) that some row's text does not fit now, as DataTable cuts
 * them: a name cut in the middle can look like another one, so the highlighted row's whole name
 * goes on a line under the table while any is cut (kept for every row, so the table does not jump).
 */
export function cutNameColumns<T>(rows: readonly T[], columns: readonly Column<T>[], width: number): Column<T>[] {
  const widths = elasticWidths(
    columns.map((c) => c.width),
    width,
  );
  return columns.filter((c, i) => c.cut === 'middle' && rows.some((r) => displayText(c.text(r)).length > widths[i]));
}

/** The line under the table: the highlighted row's whole names ("index: ... · node: ..."); empty without a row. */
export function fullNameText<T>(row: T | undefined, cut: readonly Column<T>[]): string {
  if (row === undefined) return '';
  return cut
    .map((c) => [c.title, c.text(row).trim()] as const)
    .filter(([, text]) => text !== '' && text !== '-')
    .map(([title, text]) => `${title}: ${displayText(text)}`)
    .join(' · ');
}

/**
 * Widths for columns of which one is elastic: fixed columns keep their width, the elastic one
 * takes what is left of `total` (at least `min`), counting one space between columns.
 */
export function elasticWidths(fixed: readonly (number | null)[], total: number, min = 8): number[] {
  const gaps = Math.max(0, fixed.length - 1);
  const used = fixed.reduce<number>((s, w) => s + (w ?? 0), 0) + gaps;
  const elastic = Math.max(min, total - used);
  return fixed.map((w) => w ?? elastic);
}
