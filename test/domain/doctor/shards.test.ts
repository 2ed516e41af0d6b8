// Shard checks on reads recorded from a real 8.19 node (test/fixtures/doctor/: one index with a
// replica on a single node, one with an allocation filter that matches no node).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockersOf, shardFindings, unassignedCases, type ExplainedCase } from '../../../src/domain/doctor/shards';
import { parseCatIndices, parseCatShards, parseClusterHealth } from '../../../src/domain/parse';

const fx = (name: string) => JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'doctor', `${name}.json`), 'utf8'));

const health = parseClusterHealth(fx('health-red'));
const shards = parseCatShards(fx('shards-red'));
const indices = parseCatIndices(fx('indices-red'));
const EXPLAINS: Record<string, unknown> = { service_v9_rep: fx('explain-same-shard'), service_v9_nowhere: fx('explain-filter') };

function explained(): ExplainedCase[] {
  return unassignedCases(shards).cases.map((c) => ({ ...c, explain: EXPLAINS[c.index] as never }));
}

describe('shards', () => {
  it('one case per index, kind of copy and reason; primaries first; bounded', () => {
    const { cases, unexplained } = unassignedCases(shards);
    expect(cases.map((c) => [c.index, c.primary, c.shards.length])).toEqual([
      ['service_v9_nowhere', true, 1],
      ['service_v9_rep', false, 2],
    ]);
    expect(unexplained).toBe(0);
    expect(unassignedCases(shards, 1)).toMatchObject({ unexplained: 2 });
  });

  it('reads the deciders that said NO from a real explain', () => {
    expect(blockersOf(fx('explain-same-shard')).map((b) => b.decider)).toEqual(['same_shard']);
    expect(blockersOf(fx('explain-filter'))[0].explanation).toMatch(
      /node does not match index setting \[index.routing.allocation.require\]/,
    );
    expect(
      blockersOf({
        can_allocate: 'no_valid_shard_copy',
        allocate_explanation: 'cannot allocate because all found copies of the shard are either stale or corrupt',
      }),
    ).toEqual([
      { decider: 'no_valid_shard_copy', explanation: 'cannot allocate because all found copies of the shard are either stale or corrupt' },
    ]);
  });

  it('groups by decider, says why red in one sentence, and links the wizard that fixes it', () => {
    const f = Object.fromEntries(shardFindings({ health, indices, explained: explained(), unexplained: 0 }).map((x) => [x.id, x]));
    expect(f['shards.unassigned.filter']).toMatchObject({
      severity: 'critical',
      fix: { key: 'e', command: 'shardeck explain service_v9_nowhere 0 primary' },
    });
    expect(f['shards.unassigned.filter'].remedy).toMatch(/allocation filter/);
    expect(f['shards.unassigned.same_shard']).toMatchObject({
      severity: 'warn',
      fix: { key: 'R', command: 'shardeck replicas set service_v9_rep 0', target: { index: 'service_v9_rep' } },
    });
    expect(f['shards.health'].severity).toBe('critical');
    expect(f['shards.health'].finding).toBe(
      'cluster is red because 1 primary shard blocked by filter (an allocation filter (index.routing.allocation.* or cluster.routing.allocation.*) excludes every node); ' +
        '2 replica shards blocked by same_shard (a copy may not share a node with another copy of the same shard)',
    );
    expect(f['shards.replicas-single-node']).toMatchObject({
      severity: 'warn',
      fix: { command: 'shardeck replicas set service_v9_rep 0' },
    });
  });

  it('a corrupt primary links the recovery checklist', () => {
    const c = unassignedCases(shards).cases[0];
    const [f] = shardFindings({
      health,
      indices,
      explained: [{ ...c, explain: { can_allocate: 'no_valid_shard_copy', allocate_explanation: 'stale or corrupt' } }],
      unexplained: 0,
    });
    expect(f).toMatchObject({
      id: 'shards.corrupt.no_valid_shard_copy',
      severity: 'critical',
      fix: { key: 'C', command: 'shardeck recover-corrupt' },
    });
  });

  it("with several data nodes, an index without a replica breaks the seed's rule 3", () => {
    const f = shardFindings({
      health: { ...health, status: 'green', numberOfDataNodes: 2, unassignedShards: 0 },
      indices: indices.map((i) => ({ ...i, replicas: 0 })),
      explained: [],
      unexplained: 0,
    });
    expect(f.find((x) => x.id === 'shards.no-replica')).toMatchObject({ severity: 'warn', fix: { key: 'R' } });
  });

  it('a decider that blocks primaries and replicas says both, and its explanation is cut at 300 characters', () => {
    const [nowhere, rep] = unassignedCases(shards).cases;
    const long = 'x'.repeat(400);
    const filter = {
      can_allocate: 'no',
      node_allocation_decisions: [{ deciders: [{ decider: 'filter', decision: 'NO', explanation: long }] }],
    };
    const f = shardFindings({
      health,
      indices,
      explained: [
        { ...nowhere, explain: filter },
        { ...rep, explain: filter },
      ],
      unexplained: 0,
    });
    expect(f.find((x) => x.id === 'shards.health')!.finding).toMatch(
      /^cluster is red because 3 primary and replica shards blocked by filter /,
    );
    expect(f.find((x) => x.id === 'shards.unassigned.filter')!.evidence).toContain(`allocation explain: ${'x'.repeat(300)}`);
  });

  it('an explain that failed is grouped on its own, with its error as the evidence', () => {
    const [nowhere] = unassignedCases(shards).cases;
    const [f] = shardFindings({
      health,
      indices,
      explained: [{ ...nowhere, explain: null, error: 'HTTP 403: no monitor privilege' }],
      unexplained: 0,
    });
    expect(f.id).toBe('shards.unassigned.explain-failed');
    expect(f.evidence).toContain('allocation explain: HTTP 403: no monitor privilege');
    const [none] = shardFindings({ health, indices, explained: [{ ...nowhere, explain: null }], unexplained: 0 });
    expect(none.id).toBe('shards.unassigned.unknown');
    expect(none.evidence.some((e) => e.startsWith('allocation explain'))).toBe(false);
  });

  it('with no data node there is no replica rule to judge', () => {
    const f = shardFindings({ health: { ...health, numberOfDataNodes: 0 }, indices, explained: [], unexplained: 0 });
    expect(f.map((x) => x.id).filter((id) => /replica/.test(id))).toEqual([]);
  });
});
