// domain/text/table.ts and the bar of domain/text/format.ts with plain values.
import { describe, expect, it } from 'vitest';
import { clampViewport, elasticWidths, filterPrompt, fitText, headerCell, viewRows, visibleRange } from '../../src/domain/text/table';
import { barText, formatAgo, heapSizeTone } from '../../src/domain/text/format';
import { commandFor, keyName } from '../../src/ui/input/keys';
import { KEYMAP } from '../../src/keys/keymap';

const rows = [
  { n: 'b', v: 2 },
  { n: 'a', v: 2 },
  { n: 'c', v: 1 },
];
const keys = [
  { title: 'name', value: (r: (typeof rows)[0]) => r.n },
  { title: 'v', value: (r: (typeof rows)[0]) => r.v },
];

describe('viewRows', () => {
  it('filters case-insensitively and sorts stably by the chosen key', () => {
    expect(viewRows(rows, { filter: '', sortKey: 0, descending: false }, (r) => r.n, keys).map((r) => r.n)).toEqual(['a', 'b', 'c']);
    expect(viewRows(rows, { filter: '', sortKey: 1, descending: false }, (r) => r.n, keys).map((r) => r.n)).toEqual(['c', 'b', 'a']);
    expect(viewRows(rows, { filter: '', sortKey: 1, descending: true }, (r) => r.n, keys).map((r) => r.n)).toEqual(['b', 'a', 'c']);
    expect(viewRows(rows, { filter: 'B', sortKey: 0, descending: false }, (r) => r.n, keys).map((r) => r.n)).toEqual(['b']);
  });

  it('does not reorder the input', () => {
    viewRows(rows, { filter: '', sortKey: 0, descending: false }, (r) => r.n, keys);
    expect(rows.map((r) => r.n)).toEqual(['b', 'a', 'c']);
  });
});

describe('filter line', () => {
  it('shows the filter being typed with a cursor, or the one kept with how to change it', () => {
    expect(filterPrompt(true, 'ord')).toBe('/ord█  (Enter keep, Esc clear)');
    expect(filterPrompt(false, 'ord')).toBe('filter: ord  (/ edit, Esc clear)');
  });
});

describe('viewport', () => {
  it('moves only as far as needed to keep the cursor visible', () => {
    expect(clampViewport(5, 0, 100, 10)).toEqual({ cursor: 5, offset: 0 });
    expect(clampViewport(10, 0, 100, 10)).toEqual({ cursor: 10, offset: 1 });
    expect(clampViewport(3, 8, 100, 10)).toEqual({ cursor: 3, offset: 3 });
    expect(clampViewport(500, 0, 100, 10)).toEqual({ cursor: 99, offset: 90 });
    expect(clampViewport(-4, 0, 100, 10)).toEqual({ cursor: 0, offset: 0 });
    expect(clampViewport(3, 50, 0, 10)).toEqual({ cursor: 0, offset: 0 });
    // Rows shrank under a filter: the viewport follows.
    expect(clampViewport(2, 40, 5, 10)).toEqual({ cursor: 2, offset: 0 });
  });

  it('slices [offset, offset+height) within the rows', () => {
    expect(visibleRange({ cursor: 0, offset: 95 }, 100, 10)).toEqual({ start: 95, end: 100 });
  });
});

describe('cells', () => {
  it('pads, aligns and cuts with an ellipsis', () => {
    expect(fitText('abc', 5)).toBe('abc  ');
    expect(fitText('abc', 5, 'right')).toBe('  abc');
    expect(fitText('abcdef', 4)).toBe('abc…');
  });

  it('gives the elastic column what the fixed ones leave, at least the minimum', () => {
    expect(elasticWidths([5, null, 5], 40)).toEqual([5, 28, 5]);
    expect(elasticWidths([30, null, 30], 40)).toEqual([30, 8, 30]);
  });

  it('draws a bar with marks at their share of the width', () => {
    const { filled, empty } = barText(50, 20, [
      { at: 85, char: 'L' },
      { at: 95, char: 'F' },
    ]);
    expect(filled).toBe('█'.repeat(10));
    expect(empty).toBe('······L·F·');
    expect((filled + empty).length).toBe(20);
  });

  it('writes ages as the panes show them', () => {
    expect(formatAgo(300)).toBe('just now');
    expect(formatAgo(3200)).toBe('3s ago');
  });

  it('flags heap above half the RAM and above 32 GB (seed, Limits)', () => {
    const gb = 1024 ** 3;
    expect(heapSizeTone(8 * gb, 32 * gb)).toBe('green');
    expect(heapSizeTone(20 * gb, 32 * gb)).toBe('yellow');
    expect(heapSizeTone(33 * gb, 256 * gb)).toBe('red');
  });
});

describe('keys', () => {
  it('names keys as the keymap spells them and resolves them by scope', () => {
    const none = {
      upArrow: false,
      downArrow: false,
      leftArrow: false,
      rightArrow: false,
      pageUp: false,
      pageDown: false,
      home: false,
      end: false,
      return: false,
      escape: false,
      ctrl: false,
      shift: false,
      tab: false,
      backspace: false,
      delete: false,
      meta: false,
      super: false,
      hyper: false,
      capsLock: false,
      numLock: false,
    };
    expect(keyName('', { ...none, pageDown: true })).toBe('pagedown');
    expect(keyName('c', { ...none, ctrl: true })).toBe('ctrl-c');
    expect(keyName('G', { ...none, shift: true })).toBe('G');
    expect(commandFor('u', ['shards', 'table', 'global'], KEYMAP)?.id).toBe('shards.toggleProblems');
    // The same key in another scope is that scope's own command, never the shards'.
    expect(commandFor('u', ['indices', 'table', 'global'], KEYMAP)?.id).toBe('wizard.indexOpen');
    expect(commandFor('u', ['templates', 'table', 'global'], KEYMAP)).toBeUndefined();
    expect(commandFor('q', ['indices', 'table', 'global'], KEYMAP)?.id).toBe('quit');
  });
});

describe('a sorted column header (issue 47 item 8)', () => {
  it('always shows the arrow: the title is cut to make room for it', () => {
    expect(headerCell('deleted', '↓', 6)).toBe('dele…↓');
    expect(headerCell('docs', '↑', 6)).toBe('docs↑ ');
    expect(headerCell('docs', '↑', 6, 'right')).toBe(' docs↑');
    expect(headerCell('deleted', '', 6)).toBe('delet…');
    expect(headerCell('deleted', '↓', 2)).toBe('d↓');
    expect(headerCell('deleted', '↓', 1)).toBe('↓');
  });
});
