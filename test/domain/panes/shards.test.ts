// The Shards pane's rows, from the recorded red scenario (a primary that never started).
import { describe, expect, it } from 'vitest';
import { shardLines, shardsInfo, SHARD_COLUMNS, SHARD_SORT_KEYS, shardTone } from '../../../src/domain/panes/shards';
import { sortRows } from '../../../src/domain/text/table';
import { scenario } from './scenario';

const r = scenario('red');

describe('shards pane rows', () => {
  it('a missing primary is red, a missing replica yellow, a started copy green', () => {
    const stuck = r.shards.find((s) => s.index === 'service_v9_stuck')!;
    const replica = r.shards.find((s) => s.state === 'UNASSIGNED' && !s.primary)!;
    const started = r.shards.find((s) => s.state === 'STARTED')!;
    expect([shardTone(stuck), shardTone(replica), shardTone(started)]).toEqual(['red', 'yellow', 'green']);
    expect(SHARD_COLUMNS.find((c) => c.title === 'reason')!.text(stuck)).toBe('INDEX_CREATED');
  });

  it('u narrows to the copies not STARTED, and the title counts them', () => {
    const problems = shardLines(r.shards, true)!;
    expect(problems).toHaveLength(7);
    expect(shardsInfo(problems.length, true, r.shards)).toBe(
      '7 shards (problems only: u) · 7 unassigned: 6 REPLICA_ADDED, 1 INDEX_CREATED',
    );
    expect(shardLines(r.shards, false)).toBe(r.shards);
    expect(shardsInfo(38, false, r.shards)).toBe('38 shards · 7 unassigned: 6 REPLICA_ADDED, 1 INDEX_CREATED');
  });

  it('sorting by state puts the unassigned copies first', () => {
    const sorted = sortRows(r.shards, SHARD_SORT_KEYS, 1, false);
    expect(sorted.slice(0, 7).every((s) => s.state === 'UNASSIGNED')).toBe(true);
  });
});
