// Issue 47 item 8: o/O sort by every column of a table pane, and the header always shows which
// column: each sort key is named as a column (DataTable puts the arrow on the column whose title is
// the key's), and each column has a key.
import { describe, expect, it } from 'vitest';
import { DOCTOR_COLUMNS, DOCTOR_SORT_KEYS } from '../../../src/domain/panes/doctor';
import { indexColumns, INDEX_SORT_KEYS } from '../../../src/domain/panes/indices';
import { NODE_COLUMNS, NODE_SORT_KEYS } from '../../../src/domain/panes/nodes';
import { SHARD_COLUMNS, SHARD_SORT_KEYS } from '../../../src/domain/panes/shards';
import { SNAPSHOT_COLUMNS, SNAPSHOT_SORT_KEYS } from '../../../src/domain/panes/snapshots';
import { TEMPLATE_COLUMNS, TEMPLATE_SORT_KEYS } from '../../../src/domain/panes/templates';

const titles = (cs: readonly { title: string }[]) => cs.map((c) => c.title).sort();

const PANES: [string, readonly { title: string }[], readonly { title: string }[]][] = [
  ['doctor', DOCTOR_COLUMNS, DOCTOR_SORT_KEYS],
  // Both layouts (with the platform's project column, and without it: the open/close status).
  ['indices', [...indexColumns(true), ...indexColumns(false)], INDEX_SORT_KEYS],
  ['nodes', NODE_COLUMNS, NODE_SORT_KEYS],
  ['shards', SHARD_COLUMNS, SHARD_SORT_KEYS],
  ['snapshots', SNAPSHOT_COLUMNS, SNAPSHOT_SORT_KEYS],
  ['templates', TEMPLATE_COLUMNS, TEMPLATE_SORT_KEYS],
];

describe.each(PANES)('the %s pane', (_pane, columns, keys) => {
  it('sorts by every column, each key named as its column', () => {
    expect(titles(keys)).toEqual([...new Set(titles(columns))]);
  });
});
