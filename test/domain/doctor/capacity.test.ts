// Shard capacity and the blocks that refuse writes (issue 41): when each fires and when it holds.
import { describe, expect, it } from 'vitest';
import { blockFindings } from '../../../src/domain/doctor/blocks';
import { capacityFindings, shardCapacity } from '../../../src/domain/doctor/capacity';

const T = { name: 'service_v9', shards: 6, replicas: 0 };
const cap = (openShards: number, over: Partial<Parameters<typeof capacityFindings>[0]> = {}) =>
  capacityFindings({ openShards, dataNodes: 1, maxShardsPerNode: 1000, template: T, source: 'counted from the open indices', ...over });

describe('shard capacity', () => {
  it("counts project indices that still fit at the template's shards and copies", () => {
    expect(shardCapacity({ openShards: 996, dataNodes: 1, maxShardsPerNode: 1000, template: T })).toEqual({
      limit: 1000,
      open: 996,
      share: 0.996,
      perProject: 6,
      fit: 0,
    });
    expect(shardCapacity({ openShards: 100, dataNodes: 2, maxShardsPerNode: 1000, template: { ...T, replicas: 1 } }).fit).toBe(158);
  });

  it('critical when the next project index is refused, with the remedies and their cost', () => {
    const [f] = cap(996);
    expect(f).toMatchObject({ id: 'capacity.shards', severity: 'critical' });
    expect(f.finding).toBe('shard capacity exhausted (99.6%): the next project index is refused ("this action would add [6] shards")');
    expect(f.evidence).toEqual([
      '996 open shards of 1000 (1 data node x cluster.max_shards_per_node 1000), counted from the open indices',
      'a project index takes 6: 6 shards x 1 copy (template service_v9)',
    ]);
    expect(f.remedy).toMatch(
      /shardeck shrink INDEX --shards 1.*close or delete.*raise cluster\.max_shards_per_node \(each shard costs heap/,
    );
  });

  it('warns from 85% or under ten project indices, holds below', () => {
    expect(cap(900)[0]).toMatchObject({ severity: 'warn', finding: 'shard capacity 90% used: 16 more project indices fit' });
    expect(cap(500, { maxShardsPerNode: 100, dataNodes: 6 })[0].severity).toBe('ok'); // 83%, 16 fit
    expect(cap(860)[0].severity).toBe('warn'); // 86%, 23 fit
    expect(cap(1000 - 6 * 9, {})[0].severity).toBe('warn'); // 9 fit
    expect(cap(600)[0]).toMatchObject({ severity: 'ok', finding: 'shard capacity 60% used: 66 more project indices fit' });
    expect(cap(600)[0].remedy).toBeUndefined();
  });

  it('a limit raised above the default is said, with its cost; the default is not', () => {
    expect(cap(10, { maxShardsPerNode: 3000 }).map((f) => f.id)).toEqual(['capacity.shards', 'capacity.limit-raised']);
    expect(cap(10).map((f) => f.id)).toEqual(['capacity.shards']);
  });

  it("without a platform template, Elasticsearch's defaults are counted and said", () => {
    const [f] = cap(10, { template: { name: null, shards: 1, replicas: 1 } });
    expect(f.evidence[1]).toBe('a project index takes 2: 1 shard x 2 copies (no platform template: Elasticsearch defaults)');
  });
});

describe('blocks', () => {
  const none = { readOnly: false, readOnlyAllowDelete: false };
  it('a cluster-wide block is critical and names the one request that lifts it', () => {
    const [c] = blockFindings({ clusterBlocks: { ...none, readOnlyAllowDelete: true } }, []);
    expect(c).toMatchObject({ id: 'blocks.cluster', severity: 'critical' });
    expect(c.remedy).toBe('PUT /_cluster/settings {"persistent":{"cluster.blocks.read_only_allow_delete":null}}');
    const [both] = blockFindings({ clusterBlocks: { readOnly: true, readOnlyAllowDelete: true } }, []);
    expect(both.finding).toMatch(/^cluster\.blocks\.read_only is set: every index refuses writes, deletes and new indices/);
    expect(both.remedy).toBe(
      'PUT /_cluster/settings {"persistent":{"cluster.blocks.read_only":null}}; then PUT /_cluster/settings {"persistent":{"cluster.blocks.read_only_allow_delete":null}}',
    );
  });

  it('index write and read-only blocks are critical, naming exactly the blocked indices', () => {
    const blocks = [
      { index: 'service_v9_a', write: true, readOnly: false, readOnlyAllowDelete: false },
      { index: 'service_v9_b', write: false, readOnly: true, readOnlyAllowDelete: false },
      { index: 'flooded', write: false, readOnly: false, readOnlyAllowDelete: true },
    ];
    const [, write, ro] = blockFindings({ clusterBlocks: none }, blocks);
    expect(write).toMatchObject({ id: 'blocks.index-write', severity: 'critical', evidence: ['service_v9_a: index.blocks.write=true'] });
    expect(write.remedy).toMatch(/PUT \/service_v9_a\/_settings \{"index\.blocks\.write":null\}$/);
    expect(ro).toMatchObject({ id: 'blocks.index-read-only', severity: 'critical' });
    expect(ro.remedy).toMatch(/PUT \/service_v9_b\/_settings \{"index\.blocks\.read_only":null\}$/);
  });

  it("holds with no block (the flood-stage block is the disk checks' own)", () => {
    const fs = blockFindings({ clusterBlocks: none }, [{ index: 'f', write: false, readOnly: false, readOnlyAllowDelete: true }]);
    expect(fs.map((f) => f.severity)).toEqual(['ok', 'ok', 'ok']);
  });
});
