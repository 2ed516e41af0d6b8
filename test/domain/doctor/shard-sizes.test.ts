// Issue 41, shard sizes: a shard over 50 GB, one over 200 M documents (critical near Lucene's
// 2,147,483,519), and many small shards while shard capacity is more than half used. Plain values:
// a real node of 50 GB or 200 M documents is not made here; the rows have _cat/shards' shape
// (domain/parse.ts parseCatShards, tested on recorded answers).
import { describe, expect, it } from 'vitest';
import { shardCapacity } from '../../../src/domain/doctor/capacity';
import { docLimitFinding, oversizedFinding, undersizedFinding } from '../../../src/domain/doctor/shard-sizes';
import type { IndexRow, ShardRow } from '../../../src/domain/types';

const GB = 1024 ** 3;
const shard = (index: string, n: number, over: Partial<ShardRow> = {}): ShardRow => ({
  index,
  shard: n,
  primary: true,
  state: 'STARTED',
  node: 'node-1',
  docs: 1000,
  storeBytes: GB / 10,
  unassignedReason: null,
  unassignedDetails: null,
  ...over,
});
const index = (name: string, over: Partial<IndexRow> = {}): IndexRow => ({
  name,
  health: 'green',
  status: 'open',
  primaries: 6,
  replicas: 0,
  docsCount: 6000,
  docsDeleted: 0,
  storeBytes: GB,
  priStoreBytes: GB,
  system: false,
  ...over,
});
const T = { name: 'service_v9', shards: 6, replicas: 0 };

describe('shards.oversized', () => {
  it('a shard over 50 GB warns, the largest named (its largest copy: a recovering replica is smaller)', () => {
    const f = oversizedFinding([
      shard('logs', 0, { storeBytes: 62 * GB }),
      shard('logs', 0, { primary: false, node: 'node-2', storeBytes: 10 * GB }),
      shard('logs', 1, { storeBytes: 40 * GB }),
    ]);
    expect(f).toMatchObject({ id: 'shards.oversized', severity: 'warn' });
    expect(f.finding).toMatch(/^1 shard over 50\.0gb, the largest 62\.0gb \(logs shard 0\)/);
  });

  it('holds at 50 GB and below, and for unassigned copies without a size', () => {
    expect(
      oversizedFinding([shard('logs', 0, { storeBytes: 50 * GB }), shard('x', 0, { storeBytes: null, docs: null, node: null })]).severity,
    ).toBe('ok');
  });
});

describe('shards.doc-limit', () => {
  it('over 200 M documents warns; from 90% of the hard limit it is critical', () => {
    expect(docLimitFinding([shard('events', 3, { docs: 250_000_000 })])).toMatchObject({ severity: 'warn' });
    const c = docLimitFinding([shard('events', 3, { docs: 2_000_000_000 })]);
    expect(c.severity).toBe('critical');
    expect(c.finding).toBe(
      "1 shard over 200,000,000 documents, the most 2,000,000,000 (93.1% of Lucene's 2,147,483,519): indexing into it fails soon",
    );
  });

  it('holds at 200 M', () => {
    expect(docLimitFinding([shard('events', 0, { docs: 200_000_000 })]).severity).toBe('ok');
  });
});

describe('shards.undersized', () => {
  const projects = Array.from({ length: 30 }, (_, i) => `service_v9_p${i}`);
  const shards = projects.flatMap((p) => Array.from({ length: 6 }, (_, n) => shard(p, n)));
  const indices = projects.map((p) => index(p));
  const cap = (max: number) => shardCapacity({ openShards: 180, dataNodes: 1, maxShardsPerNode: max, template: T });

  it('many shards under 1 GB while capacity is over half used warns, with a shrink of the index holding most', () => {
    const f = undersizedFinding(shards, indices, cap(300));
    expect(f).toMatchObject({ id: 'shards.undersized', severity: 'warn' });
    expect(f.finding).toBe('180 shards under 1.00gb while shard capacity is 60% used: small indices take the shard limit, not the disk');
    expect(f.fix).toEqual({ command: 'shardeck shrink service_v9_p0 --shards 1 --dry-run' });
  });

  it('holds while capacity is half used or less, when small shards are few, and ignores closed and system indices', () => {
    expect(undersizedFinding(shards, indices, cap(1000)).severity).toBe('ok');
    const big = shards.map((s) => ({ ...s, storeBytes: 5 * GB }));
    expect(undersizedFinding(big, indices, cap(300)).severity).toBe('ok');
    const closed = indices.map((i) => ({ ...i, status: 'close' }));
    expect(undersizedFinding(shards, closed, cap(300)).finding).toBe('small shards are not the most (0 under 1.00gb)');
  });
});
