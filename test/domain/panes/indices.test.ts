// The Indices pane's rows, from the recorded yellow scenario.
import { describe, expect, it } from 'vitest';
import {
  indexColumns,
  indexLines,
  indicesInfo,
  INDEX_SORT_KEYS,
  indexSearchText,
  projectsWithoutIndex,
} from '../../../src/domain/panes/indices';
import { sortRows } from '../../../src/domain/text/table';
import { scenario } from './scenario';

const y = scenario('yellow');

describe('indices pane rows', () => {
  it('hides dot indices until asked, marks the read-only block, names the platform project', () => {
    const lines = indexLines(y.indices, y.blocks, { orders: 'Orders' }, false);
    expect(lines.map((l) => [l.name, l.block ?? '', l.project])).toEqual([
      ['service_v9_orders', '', 'Orders'],
      ['service_v9_bravo', 'ro/del', '? bravo'],
      ['service_v9_legacy', '', '? legacy'],
      ['service_v9_kb', '', '? kb'],
      ['service_v9_alpha', '', '? alpha'],
    ]);
    expect(indexLines(y.indices, y.blocks, undefined, true).map((l) => l.name)).toContain('.shardeck-demo-internal');
    // Not signed in: no project column at all.
    expect(indexLines(y.indices, y.blocks, undefined, false).every((l) => l.project === undefined)).toBe(true);
  });

  it('sorts by health worst first, and filters on name, project, health, status and block', () => {
    const lines = indexLines(y.indices, y.blocks, { orders: 'Orders' }, false);
    expect(sortRows(lines, INDEX_SORT_KEYS, 1, false)[0].name).toBe('service_v9_orders');
    expect(indexSearchText(lines[1])).toBe('service_v9_bravo ? bravo green open ro/del');
  });

  it('the project takes the place of the status column; the block is red', () => {
    const titles = (withProject: boolean) => indexColumns(withProject).map((c) => c.title);
    expect(titles(false)).toEqual(['health', 'status', 'index', 'p/r', 'docs', 'deleted', 'size', 'block']);
    expect(titles(true)).toEqual(['health', 'index', 'project', 'p/r', 'docs', 'deleted', 'size', 'block']);
    const [bravo] = indexLines(y.indices, y.blocks, undefined, false).filter((l) => l.name === 'service_v9_bravo');
    const block = indexColumns(false).find((c) => c.title === 'block')!;
    expect([block.text(bravo), block.tone!(bravo)]).toEqual(['ro/del', 'red']);
  });

  it('names the projects without an index, and counts what is hidden', () => {
    expect(projectsWithoutIndex({ orders: 'Orders', ghost: 'Ghost' }, y.indices, 'v9')).toEqual(['Ghost']);
    expect(projectsWithoutIndex(undefined, y.indices, 'v9')).toEqual([]);
    expect(indicesInfo(5, 6, 1, false, ['Ghost'])).toBe('5 of 6 (1 dot hidden: .)  no index yet: Ghost');
    expect(indicesInfo(6, 6, 0, true, [])).toBe('6 of 6');
  });
});
