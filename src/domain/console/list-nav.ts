// The one list navigator: every list the operator moves through (the table panes, the Health
// indicators, the Timeline, the Fleet view, the index detail, JSON and documents views, the help)
// goes up/down/page/home/end through `navigate`. The cursor follows the ITEM by its key (index
// name, shard id, node id, profile name, line id), not the row number: a re-sort or a poll that
// reorders the rows keeps the highlight on what the operator chose. When that item disappears the
// highlight moves to its neighbour and `gone` names the item, so action keys can refuse until the
// operator has looked again (any navigation key clears it).

import { displayText } from '../text/display-text';
import { middleEllipsis } from '../text/text';
import { clampViewport } from '../text/table';

export type NavMove = 'up' | 'down' | 'pageUp' | 'pageDown' | 'home' | 'end';

export interface ListNav {
  /** Key of the selected item; undefined until the list has rows (then its row `cursor` is taken). */
  key?: string;
  /** Row of the selected item as last seen: a hint, the key decides. */
  cursor: number;
  /** First visible row. */
  offset: number;
  /** The item chosen is gone and the highlight is on a neighbour nobody chose: its key. */
  gone?: string;
  /** On the last row of a `tail` list: stays on the last row as rows are added. */
  tail?: boolean;
  /**
   * The operator just changed which rows show (a pane's toggle): on the next rows the item stays
   * chosen where it still shows; hidden, the highlight goes to the first row, not to a neighbour
   * marked "selection moved" (they hid it themselves). Cleared once resolved.
   */
  startIfGone?: boolean;
}

/** The list as it is now: its length, the key of a row, and the rows that fit on screen. */
export interface NavList {
  length: number;
  keyAt(row: number): string;
  height: number;
  /** A log: when the cursor is on the last row, it stays on the last row as rows are added. */
  tail?: boolean;
  /** Rows a page key moves (default: the height less one row of overlap). */
  page?: number;
}

export type NavEvent =
  /** A navigation key (clears `gone`: the operator is looking). */
  | { type: 'move'; move: NavMove }
  /** The rows changed (a poll, a re-sort, a filter) or the height did: find the item again. */
  | { type: 'rows' }
  /** Back to the first row with nothing chosen yet (a new filter, a new section). */
  | { type: 'reset' }
  /** The program puts the cursor on an item (the JSON container just folded); unknown keys change nothing. */
  | { type: 'select'; key: string };

export const NAV_START: ListNav = { cursor: 0, offset: 0 };

/** A NavList over rows with their key function. */
export function navList<T>(rows: readonly T[], keyOf: (row: T) => string, height: number, tail = false): NavList {
  return { length: rows.length, keyAt: (i) => keyOf(rows[i]), height, tail };
}

/**
 * A text that scrolls without a cursor (the help, the Health indicators): each first visible line
 * is an item, so the navigator's cursor is the scroll offset.
 */
export function scrollList(lines: number, height: number, tail = false): NavList {
  const room = Math.max(1, height);
  return { length: Math.max(1, lines - room + 1), keyAt: String, height: 1, page: Math.max(1, room - 1), tail };
}

/** The command ids of the keymap's table keys as moves. */
export const MOVE_OF_COMMAND: Readonly<Record<string, NavMove>> = {
  'row.up': 'up',
  'row.down': 'down',
  'row.pageUp': 'pageUp',
  'row.pageDown': 'pageDown',
  'row.first': 'home',
  'row.last': 'end',
};

export function navigate(s: ListNav, e: NavEvent, list: NavList): ListNav {
  if (e.type === 'reset') return resolve(NAV_START, list);
  const at = resolve(s, list);
  if (e.type === 'rows') return at;
  if (e.type === 'select') {
    const i = indexOf(list, e.key);
    return i < 0 ? at : { key: e.key, ...viewport(i, at.offset, list) };
  }
  if (list.length === 0) return { key: at.key, cursor: 0, offset: 0 };
  const page = list.page ?? Math.max(1, list.height - 1);
  const target = {
    up: at.cursor - 1,
    down: at.cursor + 1,
    pageUp: at.cursor - page,
    pageDown: at.cursor + page,
    home: 0,
    end: list.length - 1,
  }[e.move];
  const cursor = clamp(target, list.length);
  return { key: list.keyAt(cursor), ...viewport(cursor, at.offset, list) };
}

/** Whether two states show the same thing (so a resolved state need not be written back). */
export function sameNav(a: ListNav, b: ListNav): boolean {
  return (
    a.key === b.key &&
    a.cursor === b.cursor &&
    a.offset === b.offset &&
    a.gone === b.gone &&
    a.tail === b.tail &&
    a.startIfGone === b.startIfGone
  );
}

/** Finds the selected item in the list as it is now; idempotent. */
function resolve(s: ListNav, list: NavList): ListNav {
  if (s.startIfGone) {
    const { startIfGone: _, ...rest } = s;
    return resolve(s.key !== undefined && indexOf(list, s.key) >= 0 ? rest : NAV_START, list);
  }
  const n = list.length;
  // Nothing to show: the key is kept so the item is found again when rows come back.
  if (n === 0) return { key: s.key, gone: s.gone, cursor: 0, offset: 0, ...(s.tail ? { tail: true } : {}) };
  // A log whose last row was selected follows the rows added after it.
  if (list.tail && s.tail) return { key: list.keyAt(n - 1), ...viewport(n - 1, s.offset, list) };
  const hint = clamp(s.cursor, n);
  if (s.key === undefined) return { key: list.keyAt(hint), gone: s.gone, ...viewport(hint, s.offset, list) };
  if (hint === s.cursor && list.keyAt(hint) === s.key) return { key: s.key, gone: s.gone, ...viewport(hint, s.offset, list) };
  const found = indexOf(list, s.key);
  // The item keeps its line on screen where it can (the rows moved around it).
  if (found >= 0) return { key: s.key, gone: s.gone, ...viewport(found, found - (s.cursor - s.offset), list) };
  // Gone: the row now at its old position, or the last; the original choice is remembered.
  const cursor = clamp(s.cursor, n);
  return { key: list.keyAt(cursor), gone: s.gone ?? s.key, ...viewport(cursor, s.offset, list) };
}

function indexOf(list: NavList, key: string): number {
  for (let i = 0; i < list.length; i++) if (list.keyAt(i) === key) return i;
  return -1;
}

function clamp(row: number, n: number): number {
  return Math.max(0, Math.min(n - 1, row));
}

/** The cursor kept inside a viewport of the list's height (clampViewport), marked when on a log's last row. */
function viewport(cursor: number, offset: number, list: NavList): Pick<ListNav, 'cursor' | 'offset' | 'tail'> {
  const v = clampViewport(cursor, offset, list.length, list.height);
  return list.tail && v.cursor === list.length - 1 ? { ...v, tail: true } : v;
}

/**
 * The line shown while the highlight sits on a neighbour of an item that disappeared, in `width`:
 * the name is cut in its middle so that what to do stays on the line (issue 47 item 7).
 */
export function movedText(gone: string, width = Infinity): string {
  const head = 'selection moved: ';
  const tail = ' is gone · ↑↓ to choose; actions wait';
  // The name is data: escaped whole here (a tab or line break in it would break the footer line).
  const name = displayText(gone);
  const room = width - head.length - tail.length;
  return `${head}${name.length > room ? middleEllipsis(name, Math.max(3, room)) : name}${tail}`;
}
