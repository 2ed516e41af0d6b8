// Nodes leaving while the console watches: the count of health dropping below the most seen, the
// names from the node list, and health's delayed shards for a console started after the fact.
import { describe, expect, it } from 'vitest';
import { nodeLeftShards, nodeLeftText, watchNodes } from '../../src/domain/nodes/node-watch';
import type { ClusterHealth, ShardRow } from '../../src/domain/types';

const health = (over: Partial<ClusterHealth> = {}): ClusterHealth => ({
  clusterName: 'c',
  status: 'green',
  numberOfNodes: 3,
  numberOfDataNodes: 3,
  activePrimaryShards: 3,
  activeShards: 6,
  relocatingShards: 0,
  initializingShards: 0,
  unassignedShards: 0,
  unassignedPrimaryShards: 0,
  delayedUnassignedShards: 0,
  pendingTasks: 0,
  activeShardsPercent: 100,
  ...over,
});

describe('node watch', () => {
  it('a drop of the node count below the peak is a node that left, named from the node list, cleared when it returns', () => {
    let w = watchNodes(undefined, 3, ['a', 'b', 'c'], 1000);
    expect(w).toEqual({ peak: 3, known: ['a', 'b', 'c'] });
    w = watchNodes(w, 2, undefined, 2000); // health only: who is not known yet
    expect(w.left).toEqual({ count: 1, names: [], since: 2000 });
    w = watchNodes(w, 2, ['a', 'b'], 3000); // the node list names it; the time it left stays
    expect(w.left).toEqual({ count: 1, names: ['c'], since: 2000 });
    w = watchNodes(w, 2, undefined, 4000); // a later health read keeps the name
    expect(w.left?.names).toEqual(['c']);
    expect(nodeLeftText(w, health({ numberOfNodes: 2 }), 42_000)).toBe('1 node left (c) 40s ago');
    w = watchNodes(w, 3, ['a', 'b', 'c'], 50_000);
    expect(w.left).toBeUndefined();
    expect(nodeLeftText(w, health(), 50_000)).toBe('');
  });

  it('a console started after the node left says so from health: shards delayed', () => {
    const w = watchNodes(undefined, 2, ['a', 'b'], 1000);
    expect(w.left).toBeUndefined();
    expect(nodeLeftText(w, health({ numberOfNodes: 2, status: 'yellow', unassignedShards: 2, delayedUnassignedShards: 2 }), 1000)).toBe(
      'node left: 2 shards delayed',
    );
  });

  it('NODE_LEFT shards and the ids of the nodes in their details', () => {
    const row = (over: Partial<ShardRow>): ShardRow => ({
      index: 'i',
      shard: 0,
      primary: false,
      state: 'UNASSIGNED',
      node: null,
      docs: null,
      storeBytes: null,
      unassignedReason: 'NODE_LEFT',
      unassignedDetails: 'node_left [abc123]',
      ...over,
    });
    expect(
      nodeLeftShards([
        row({}),
        row({ shard: 1 }),
        row({ unassignedReason: 'INDEX_CREATED', unassignedDetails: null }),
        row({ state: 'STARTED', node: 'a' }),
      ]),
    ).toEqual({ shards: 2, nodeIds: ['abc123'] });
    expect(nodeLeftShards(undefined)).toEqual({ shards: 0, nodeIds: [] });
  });

  it("with the node list's facts: each node's roles kept after it left, and every new elected master with when it was seen (the doctor's master rules)", () => {
    const facts = (master: string | null) => ({ roles: { a: 'dim', b: 'dim', c: 'di' }, master });
    let w = watchNodes(undefined, 3, ['a', 'b', 'c'], 1000, facts('a'));
    expect(w.masters).toEqual([{ name: 'a', since: 1000 }]);
    w = watchNodes(w, 3, ['a', 'b', 'c'], 2000, facts('a')); // the same master: nothing added
    expect(w.masters).toHaveLength(1);
    w = watchNodes(w, 2, ['b', 'c'], 3000, { roles: { b: 'dim', c: 'di' }, master: 'b' });
    expect(w).toEqual({
      peak: 3,
      known: ['a', 'b', 'c'],
      left: { count: 1, names: ['a'], since: 3000 },
      roles: { a: 'dim', b: 'dim', c: 'di' },
      masters: [
        { name: 'a', since: 1000 },
        { name: 'b', since: 3000 },
      ],
    });
    // A health read alone (no node list) keeps what was seen.
    expect(watchNodes(w, 2, undefined, 4000).masters).toHaveLength(2);
  });
});
