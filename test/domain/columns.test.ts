// Columns of one's own: hide, show and reorder, the name never hidden, defaults for what a choice
// does not name, and the file refused whole when it holds anything else.
import { describe, expect, it } from 'vitest';
import { applyColumnChoice, chooserRows, moveColumn, parseColumnChoices, toggleColumn } from '../../src/domain/console/columns';

const COLS = [
  { title: 'health', width: 7 },
  { title: 'index', width: null },
  { title: 'docs', width: 8 },
  { title: 'size', width: 8 },
];
const titles = COLS.map((c) => c.title);
const shown = (choice?: Parameters<typeof applyColumnChoice>[1]) => applyColumnChoice(COLS, choice).map((c) => c.title);

describe('columns of one own', () => {
  it('no choice: the pane as declared', () => {
    expect(shown()).toEqual(titles);
  });

  it('hides and shows a column; the name (the elastic column) stays', () => {
    const hidden = toggleColumn(titles, undefined, 'docs', false);
    expect(shown(hidden)).toEqual(['health', 'index', 'size']);
    expect(shown(toggleColumn(titles, hidden, 'docs', false))).toEqual(titles);
    expect(toggleColumn(titles, hidden, 'index', true)).toBe(hidden);
    expect(shown({ order: [], hidden: ['index'] })).toEqual(titles);
  });

  it('moves a column left or right, not past either end; the chooser lists every column in that order', () => {
    const moved = moveColumn(titles, undefined, 'size', -1);
    expect(shown(moved)).toEqual(['health', 'index', 'size', 'docs']);
    expect(moveColumn(titles, moved, 'health', -1).order).toEqual(['health', 'index', 'size', 'docs']);
    const hid = toggleColumn(titles, moved, 'docs', false);
    expect(chooserRows(COLS, hid)).toEqual([
      { title: 'health', shown: true, fixed: false },
      { title: 'index', shown: true, fixed: true },
      { title: 'size', shown: true, fixed: false },
      { title: 'docs', shown: false, fixed: false },
    ]);
  });

  it('a column the choice does not name (new in this version) keeps its place after the ones it names; a gone one is ignored', () => {
    expect(shown({ order: ['size', 'gone', 'health'], hidden: ['gone'] })).toEqual(['size', 'health', 'index', 'docs']);
  });

  it('reads the kept choices, and refuses a file holding anything else', () => {
    expect(parseColumnChoices('{"prod":{"indices":{"order":["a"],"hidden":[]}}}')).toEqual({
      prod: { indices: { order: ['a'], hidden: [] } },
    });
    expect(parseColumnChoices('{')).toBe('is not JSON');
    expect(parseColumnChoices('[]')).toBe('is not a JSON object');
    expect(parseColumnChoices('{"prod":{"indices":{"order":"a"}}}')).toBe('holds a pane choice without its order and hidden lists');
  });
});
