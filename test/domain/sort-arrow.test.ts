// A header's arrow says how the values go down the screen (issue 44 item 7: the Tasks pane read
// "running↑" over the longest running first; the Snapshots pane would read "start↑" over the newest first).
import { describe, expect, it } from 'vitest';
import { shownDescending, sortRows, type SortKey } from '../../src/domain/text/table';
import { TASK_SORT_KEYS } from '../../src/domain/panes/tasks';
import { SNAPSHOT_SORT_KEYS } from '../../src/domain/panes/snapshots';

/** The arrow the header shows for a key, and whether the sorted values really go down. */
function arrowAndOrder<T>(key: SortKey<T>, rows: T[], shown: (r: T) => number, descending: boolean): { arrow: string; goesDown: boolean } {
  const sorted = sortRows(rows, [key], 0, descending).map(shown);
  const goesDown = sorted.every((v, i) => i === 0 || sorted[i - 1] >= v);
  return { arrow: shownDescending(key, descending) ? '↓' : '↑', goesDown };
}

describe('sort arrows', () => {
  it('a largest-first key reads ↓ in the pane order and ↑ reversed; a plain key the other way round', () => {
    expect(shownDescending({ largestFirst: true }, false)).toBe(true);
    expect(shownDescending({ largestFirst: true }, true)).toBe(false);
    expect(shownDescending({}, false)).toBe(false);
    expect(shownDescending(undefined, true)).toBe(true);
  });

  it('the Tasks pane: longest running first under running↓, shortest first under running↑ (O)', () => {
    const rows = [5, 900, 30].map((ms) => ({ runningMillis: ms, children: [] }) as never);
    const running = TASK_SORT_KEYS[0];
    const ms = (r: { runningMillis: number }) => r.runningMillis;
    expect(running.title).toBe('running');
    expect(arrowAndOrder(running, rows, ms, false)).toEqual({ arrow: '↓', goesDown: true });
    expect(arrowAndOrder(running, rows, ms, true)).toEqual({ arrow: '↑', goesDown: false });
  });

  it('the Snapshots pane: newest first under start (UTC)↓', () => {
    const rows = [1, 3, 2].map((t) => ({ startMs: t }) as never);
    const start = SNAPSHOT_SORT_KEYS[0];
    const t = (s: { startMs?: number }) => s.startMs ?? 0;
    expect(arrowAndOrder(start, rows, t, false)).toEqual({ arrow: '↓', goesDown: true });
    expect(arrowAndOrder(start, rows, t, true)).toEqual({ arrow: '↑', goesDown: false });
  });
});
