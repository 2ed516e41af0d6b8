import { describe, expect, it } from 'vitest';
import { movedText, navigate, navList, NAV_START, sameNav, type ListNav, type NavMove } from '../../src/domain/console/list-nav';

const list = (keys: string[], height = 3, tail = false) => navList(keys, (k) => k, height, tail);
const letters = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i));

function moves(s: ListNav, keys: string[], ...ms: NavMove[]): ListNav {
  return ms.reduce((st, m) => navigate(st, { type: 'move', move: m }, list(keys)), s);
}

describe('list navigator', () => {
  it('selects the first row of a new list, and keeps the key when the list is empty', () => {
    expect(navigate(NAV_START, { type: 'rows' }, list(['a', 'b']))).toMatchObject({ key: 'a', cursor: 0, offset: 0 });
    expect(navigate({ key: 'b', cursor: 1, offset: 0 }, { type: 'rows' }, list([]))).toMatchObject({ key: 'b', cursor: 0, offset: 0 });
    // The item is found again when the rows come back.
    expect(navigate({ key: 'b', cursor: 0, offset: 0 }, { type: 'rows' }, list(['a', 'b']))).toMatchObject({ key: 'b', cursor: 1 });
  });

  it('moves up, down, by pages and to either end, keeping the cursor on screen', () => {
    const keys = letters(10);
    const s = navigate(NAV_START, { type: 'rows' }, list(keys));
    expect(moves(s, keys, 'down', 'down', 'down')).toEqual({ key: 'd', cursor: 3, offset: 1 });
    expect(moves(s, keys, 'up')).toEqual({ key: 'a', cursor: 0, offset: 0 });
    // A page is the height less one row of overlap.
    expect(moves(s, keys, 'pageDown')).toEqual({ key: 'c', cursor: 2, offset: 0 });
    expect(moves(s, keys, 'pageDown', 'pageDown')).toEqual({ key: 'e', cursor: 4, offset: 2 });
    expect(moves(s, keys, 'end')).toEqual({ key: 'j', cursor: 9, offset: 7 });
    expect(moves(s, keys, 'end', 'down')).toEqual({ key: 'j', cursor: 9, offset: 7 });
    expect(moves(s, keys, 'end', 'pageUp')).toEqual({ key: 'h', cursor: 7, offset: 7 });
    expect(moves(s, keys, 'end', 'home')).toEqual({ key: 'a', cursor: 0, offset: 0 });
  });

  it('follows the item, not the row number, when the rows are re-sorted', () => {
    const s: ListNav = { key: 'c', cursor: 2, offset: 1 };
    const after = navigate(s, { type: 'rows' }, list(['e', 'd', 'c', 'b', 'a']));
    // Reversed: c is still at row 2.
    expect(after).toMatchObject({ key: 'c', cursor: 2 });
    const moved = navigate(s, { type: 'rows' }, list(['c', 'a', 'b', 'd', 'e']));
    expect(moved).toMatchObject({ key: 'c', cursor: 0, offset: 0 });
    expect(moved.gone).toBeUndefined();
    // Moving from there moves from the item, not from the old row.
    expect(navigate(s, { type: 'move', move: 'down' }, list(['c', 'a', 'b', 'd', 'e']))).toMatchObject({ key: 'a', cursor: 1 });
  });

  it('keeps the item on its screen line when rows are added above it', () => {
    const s: ListNav = { key: 'f', cursor: 5, offset: 4 };
    expect(navigate(s, { type: 'rows' }, list(['x', 'y', ...letters(10)]))).toEqual({ key: 'f', cursor: 7, offset: 6, gone: undefined });
  });

  it('moves to the neighbour when the item disappears and says which item is gone, until a navigation key', () => {
    const s: ListNav = { key: 'c', cursor: 2, offset: 0 };
    const gone = navigate(s, { type: 'rows' }, list(['a', 'b', 'd', 'e']));
    expect(gone).toMatchObject({ key: 'd', cursor: 2, gone: 'c' });
    // Idempotent: resolving again changes nothing (the neighbour is not taken for a choice).
    expect(sameNav(navigate(gone, { type: 'rows' }, list(['a', 'b', 'd', 'e'])), gone)).toBe(true);
    // The last row went: the new last row.
    expect(navigate({ key: 'e', cursor: 4, offset: 2 }, { type: 'rows' }, list(['a', 'b', 'c', 'd']))).toMatchObject({
      key: 'd',
      cursor: 3,
      gone: 'e',
    });
    // The neighbour disappears too: still the first choice is named.
    expect(navigate(gone, { type: 'rows' }, list(['a', 'b', 'e']))).toMatchObject({ key: 'e', gone: 'c' });
    // Any navigation key is a fresh look.
    const looked = navigate(gone, { type: 'move', move: 'up' }, list(['a', 'b', 'd', 'e']));
    expect(looked).toMatchObject({ key: 'b', cursor: 1 });
    expect(looked.gone).toBeUndefined();
    expect(navigate(gone, { type: 'move', move: 'home' }, list([])).gone).toBeUndefined();
  });

  it('keeps the cursor on screen when the height changes', () => {
    const s: ListNav = { key: 'h', cursor: 7, offset: 0 };
    expect(navigate(s, { type: 'rows' }, list(letters(10), 8))).toEqual({ key: 'h', cursor: 7, offset: 0, gone: undefined });
    expect(navigate(s, { type: 'rows' }, list(letters(10), 3))).toEqual({ key: 'h', cursor: 7, offset: 5, gone: undefined });
    // Grown back: the viewport does not scroll back further than it must.
    expect(navigate({ key: 'h', cursor: 7, offset: 5 }, { type: 'rows' }, list(letters(10), 8))).toMatchObject({ cursor: 7, offset: 2 });
  });

  it('reset goes back to the first row and forgets what was gone', () => {
    expect(navigate({ key: 'c', cursor: 2, offset: 1, gone: 'x' }, { type: 'reset' }, list(letters(5)))).toEqual({
      key: 'a',
      cursor: 0,
      offset: 0,
      gone: undefined,
    });
  });

  it('a tail list stays on its last row as rows are added, and stays put when moved off it', () => {
    const start: ListNav = { cursor: 0, offset: 0, tail: true };
    const at = navigate(start, { type: 'rows' }, list(letters(3), 2, true));
    expect(at).toMatchObject({ key: 'c', cursor: 2, offset: 1, tail: true });
    expect(navigate(at, { type: 'rows' }, list(letters(5), 2, true))).toMatchObject({ key: 'e', cursor: 4, offset: 3, tail: true });
    const up = navigate(at, { type: 'move', move: 'up' }, list(letters(3), 2, true));
    expect(up.tail).toBeUndefined();
    expect(navigate(up, { type: 'rows' }, list(letters(5), 2, true))).toMatchObject({ key: 'b', cursor: 1 });
    // Back to the end: following again.
    expect(navigate(up, { type: 'move', move: 'end' }, list(letters(5), 2, true))).toMatchObject({ key: 'e', tail: true });
  });
});

describe('a toggle that changes which rows show (startIfGone)', () => {
  const rows = { type: 'rows' } as const;
  it('keeps the item chosen when it still shows, wherever it moved', () => {
    const s: ListNav = { key: 'c', cursor: 2, offset: 0, startIfGone: true };
    const after = navigate(s, rows, list(['.x', '.y', 'a', 'c'], 10));
    expect(after).toEqual({ key: 'c', cursor: 3, offset: 0 });
    expect(after.gone).toBeUndefined();
  });

  it('goes to the first row when the toggle hid the item, with no "selection moved"', () => {
    const s: ListNav = { key: '.y', cursor: 1, offset: 0, startIfGone: true };
    expect(navigate(s, rows, list(['a', 'b', 'c'], 10))).toEqual({ key: 'a', cursor: 0, offset: 0 });
  });

  it('is resolved once: later rows follow the item as usual (a poll that drops it marks it gone)', () => {
    const once = navigate({ key: 'b', cursor: 1, offset: 0, startIfGone: true }, rows, list(['a', 'b', 'c'], 10));
    expect(once.startIfGone).toBeUndefined();
    expect(navigate(once, rows, list(['a', 'c'], 10))).toMatchObject({ key: 'c', gone: 'b' });
  });

  it('a state still marked is not the same as the resolved one (so the mark is written back cleared)', () => {
    expect(sameNav({ key: 'a', cursor: 0, offset: 0, startIfGone: true }, { key: 'a', cursor: 0, offset: 0 })).toBe(false);
  });
});

describe('the "selection moved" line (issue 47 item 7)', () => {
  it('keeps what to do whole at 80 columns: a long name is cut in its middle', () => {
    const line = movedText('service_v9_a_project_with_a_very_long_name_indeed', 80);
    expect(line.length).toBeLessThanOrEqual(80);
    expect(line).toMatch(/^selection moved: service_v9_a.*….*indeed is gone · ↑↓ to choose; actions wait$/);
    expect(movedText('bravo', 80)).toBe('selection moved: bravo is gone · ↑↓ to choose; actions wait');
  });
});
