// At scale a poll keeps the rows it repeats (memory, and an unchanged table costs no redraw), the
// panes keep what they derived from them, and the next sort starts from the last order: each must
// give exactly what a fresh computation gives. Rows recorded from the real node (test/fixtures/).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCatIndices, parseCatShards } from '../../src/domain/parse';
import { indexLines, indexLinesAgain, INDEX_SORT_KEYS } from '../../src/domain/panes/indices';
import { SHARD_SORT_KEYS } from '../../src/domain/panes/shards';
import { sortRows, sortRowsAgain } from '../../src/domain/text/table';
import { sameData } from '../../src/services/poller';

const fx = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/yellow', `${name}.json`), 'utf8')) as Record<string, unknown>[];

describe('parsers keep the rows a poll repeats', () => {
  it('an unchanged _cat/indices answer gives the same rows by identity, and the poller sees the same data', () => {
    const first = parseCatIndices(fx('indices'));
    const again = parseCatIndices(fx('indices'), first);
    expect(again).toEqual(first);
    expect(again.every((r, i) => r === first[i])).toBe(true);
    expect(sameData(first, again)).toBe(true);
  });

  it('a changed row is new (with the new values), the others are kept, also when rows moved', () => {
    const raw = fx('indices');
    const first = parseCatIndices(raw);
    const next = raw.map((r, i) => (i === 1 ? { ...r, 'docs.count': String(Number(r['docs.count']) + 5) } : r)).reverse();
    const again = parseCatIndices(next, first);
    expect(again).toEqual(parseCatIndices(next));
    const changed = again.find((r) => r.name === raw[1].index)!;
    expect(changed).not.toBe(first[1]);
    expect(changed.docsCount).toBe(first[1].docsCount + 5);
    for (const r of again) if (r !== changed) expect(first).toContain(r);
    expect(sameData(first, again)).toBe(false);
  });

  it('shards: same answer same rows; a state change makes a new row; repeated unassigned copies each get a row', () => {
    const raw = fx('shards');
    const first = parseCatShards(raw);
    expect(parseCatShards(raw, first).every((r, i) => r === first[i])).toBe(true);
    const unassigned = raw.findIndex((r) => r.state === 'UNASSIGNED');
    expect(unassigned).toBeGreaterThanOrEqual(0);
    const twice = [raw[unassigned], ...raw];
    const again = parseCatShards(twice, first);
    expect(again).toEqual(parseCatShards(twice));
    const started = raw.map((r, i) => (i === unassigned ? { ...r, state: 'INITIALIZING' } : r));
    const moved = parseCatShards(started, first);
    expect(moved[unassigned]).not.toBe(first[unassigned]);
    expect(moved[unassigned].state).toBe('INITIALIZING');
  });

  // The next table is made at the last one's size (no push-grown copies of a 100,000-row array):
  // an answer with fewer or more rows than the last gives exactly its rows, no empty slots.
  it('an answer with fewer or more rows than the last: exactly its rows, none empty', () => {
    const check = <T>(read: string, parse: (rows: Record<string, unknown>[], prev?: readonly T[]) => T[]) => {
      const raw = fx(read);
      expect(raw.length, read).toBeGreaterThan(3);
      const all = parse(raw);
      for (const answer of [raw.slice(0, 2), [...raw, ...raw.slice(0, 3)], []]) {
        const again = parse(answer, all);
        expect(again, read).toHaveLength(answer.length);
        expect(Object.keys(again), read).toHaveLength(answer.length);
        expect(again, read).toEqual(parse(answer));
      }
    };
    check('indices', parseCatIndices);
    check('shards', parseCatShards);
  });
});

describe('derived rows and sorts start from the last snapshot', () => {
  function synthetic(n: number, salt: number) {
    return Array.from({ length: n }, (_, i) => ({
      index: i % 7 === 0 ? `.sys-${i}` : `service_v9_p${(i * 7919) % n}`,
      health: i % 11 === 0 ? 'yellow' : 'green',
      status: 'open',
      uuid: `u${i}`,
      pri: '1',
      rep: '1',
      'docs.count': String(((i * 31) % 97) + (i % 10 === salt % 10 ? salt : 0)),
      'docs.deleted': '0',
      'store.size': String((i * 104_729) % 9_000_000_000),
      'pri.store.size': '1',
    }));
  }

  it('index lines and every sort key, both directions, equal a fresh computation over several polls', () => {
    const blocks: never[] = [];
    let rows = parseCatIndices(synthetic(3000, 0));
    let memo = indexLinesAgain(rows, blocks, undefined, false, 'v9');
    const sorts = INDEX_SORT_KEYS.map((_, k) => [false, true].map((d) => sortRowsAgain(memo.lines, INDEX_SORT_KEYS, k, d)));
    for (let poll = 1; poll <= 4; poll++) {
      // A new index in the middle, one gone, 10% changed.
      const raw = synthetic(3000, poll);
      raw.splice(1500, 0, { ...raw[0], index: `new-${poll}`, uuid: `n${poll}` });
      raw.splice(10, 1);
      rows = parseCatIndices(raw, rows);
      const before = memo;
      memo = indexLinesAgain(rows, blocks, undefined, false, 'v9', memo);
      expect(memo.lines).toEqual(indexLines(rows, blocks, undefined, false, 'v9'));
      expect(memo.lines.filter((l) => before.lines.includes(l)).length).toBeGreaterThan(2000);
      INDEX_SORT_KEYS.forEach((_, k) =>
        [false, true].forEach((d, j) => {
          sorts[k][j] = sortRowsAgain(memo.lines, INDEX_SORT_KEYS, k, d, sorts[k][j]);
          expect(sorts[k][j].output).toEqual(sortRows(memo.lines, INDEX_SORT_KEYS, k, d));
        }),
      );
    }
  });

  it('a poll that changed a few rows in place: a new line for each, the rest kept, the same order as a fresh sort', () => {
    const blocks: never[] = [];
    const raw = synthetic(3000, 0);
    const rows = parseCatIndices(raw);
    const memo = indexLinesAgain(rows, blocks, undefined, false, 'v9');
    const sorts = INDEX_SORT_KEYS.map((_, k) => sortRowsAgain(memo.lines, INDEX_SORT_KEYS, k, true));
    const changed = raw.map((r, i) => (i % 500 === 1 ? { ...r, 'docs.count': String(10_000 + i), 'store.size': '7' } : r));
    const rows2 = parseCatIndices(changed, rows);
    expect(rows2.filter((r, i) => r !== rows[i]).length).toBe(6);
    const memo2 = indexLinesAgain(rows2, blocks, undefined, false, 'v9', memo);
    expect(memo2.lines).toEqual(indexLines(rows2, blocks, undefined, false, 'v9'));
    // One of them is a dot index, hidden.
    expect(memo2.lines.filter((l, i) => l !== memo.lines[i]).length).toBe(rows2.filter((r, i) => r !== rows[i] && !r.system).length);
    INDEX_SORT_KEYS.forEach((_, k) =>
      expect(sortRowsAgain(memo2.lines, INDEX_SORT_KEYS, k, true, sorts[k]).output).toEqual(
        sortRows(memo2.lines, INDEX_SORT_KEYS, k, true),
      ),
    );
  });

  it('the shards index key compares like its value', () => {
    const rows = parseCatShards(fx('shards'));
    const byValue = SHARD_SORT_KEYS.map((k) => ({ ...k, compare: undefined }));
    for (let k = 0; k < SHARD_SORT_KEYS.length; k++)
      for (const d of [false, true]) expect(sortRows(rows, SHARD_SORT_KEYS, k, d)).toEqual(sortRows(rows, byValue, k, d));
  });
});
