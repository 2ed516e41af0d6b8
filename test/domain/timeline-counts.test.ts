// Issue 48: the console's last count of an index before it turned red, as the timeline records it
// (what a restore's loss is reckoned from). A row without a count (docs.count empty while a
// primary is not started, read as 0; a closed index) keeps the count before it: seen on 8.19 when
// dev/corrupt.mjs closes and reopens the index, the console recorded "0 documents before red".
import { describe, expect, it } from 'vitest';
import { countsAtRed, entryText } from '../../src/domain/timeline';

const row = (
  name: string,
  health: 'green' | 'yellow' | 'red',
  docsCount: number,
  status = 'open',
  priStoreBytes = docsCount ? 1000 : 0,
) => ({
  name,
  health,
  status,
  docsCount,
  priStoreBytes,
});
const T0 = Date.parse('2026-11-28T20:00:00Z');

describe('countsAtRed', () => {
  it('an index that turns red: its documents at the read before, once', () => {
    let r = countsAtRed(null, [row('a', 'green', 2337), row('b', 'yellow', 5)], T0, 5000);
    expect(r.entries).toEqual([]);
    r = countsAtRed(r.seen, [row('a', 'red', 0), row('b', 'yellow', 5)], T0 + 60_000, 5000);
    // The rows did not change between: the count held until the read before the red one.
    expect(r.entries).toEqual([{ kind: 'count', time: '2026-11-28T20:00:55.000Z', index: 'a', docs: 2337, before: 'red' }]);
    expect(entryText(r.entries[0])).toBe('count: a held 2337 documents (the last read before it turned red)');
    // Still red: not recorded again.
    r = countsAtRed(r.seen, [row('a', 'red', 0), row('b', 'yellow', 6)], T0 + 65_000, 5000);
    expect(r.entries).toEqual([]);
  });

  it('closed, then reopened without a count, then red: the count from before the close, at its own time', () => {
    let r = countsAtRed(null, [row('a', 'green', 2337)], T0, 5000);
    r = countsAtRed(r.seen, [row('a', 'green', 0, 'close')], T0 + 5000, 5000);
    r = countsAtRed(r.seen, [row('a', 'yellow', 0)], T0 + 10_000, 5000);
    r = countsAtRed(r.seen, [row('a', 'red', 0)], T0 + 15_000, 5000);
    expect(r.entries).toEqual([{ kind: 'count', time: '2026-11-28T20:00:00.000Z', index: 'a', docs: 2337, before: 'red' }]);
  });

  it('an empty index that answered counts 0; an index never counted before red records nothing', () => {
    let r = countsAtRed(null, [row('e', 'green', 0, 'open', 225), row('n', 'red', 0)], T0, 5000);
    r = countsAtRed(r.seen, [row('e', 'red', 0), row('n', 'red', 0)], T0 + 5000, 5000);
    expect(r.entries).toEqual([{ kind: 'count', time: '2026-11-28T20:00:00.000Z', index: 'e', docs: 0, before: 'red' }]);
  });

  it('a deleted index is forgotten', () => {
    let r = countsAtRed(null, [row('a', 'green', 10)], T0, 5000);
    r = countsAtRed(r.seen, [], T0 + 5000, 5000);
    r = countsAtRed(r.seen, [row('a', 'red', 0)], T0 + 10_000, 5000);
    expect(r.entries).toEqual([]);
  });
});
