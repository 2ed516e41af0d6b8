// status exits 2 when writes are refused whatever the colour (issue 41): a cluster-wide block,
// shard capacity exhausted (the health report's red shards_capacity, or counted before 8.7).
import { describe, expect, it } from 'vitest';
import { parseClusterSettings } from '../../src/domain/parse';
import { buildStatusReport, statusExitCode } from '../../src/domain/inspect/status';

const health = (shards: number, dataNodes = 1) => ({
  clusterName: 'c',
  status: 'green' as const,
  numberOfNodes: dataNodes,
  numberOfDataNodes: dataNodes,
  activePrimaryShards: shards,
  activeShards: shards,
  relocatingShards: 0,
  initializingShards: 0,
  unassignedShards: 0,
  unassignedPrimaryShards: 0,
  delayedUnassignedShards: 0,
  pendingTasks: 0,
  activeShardsPercent: 100,
});
const settings = (persistent: Record<string, unknown> = {}) => parseClusterSettings({ persistent, defaults: {} });
const report = (over: Partial<Parameters<typeof buildStatusReport>[0]> = {}) =>
  buildStatusReport({ health: health(10), allocation: [], settings: settings(), blocks: [], ...over });

describe('status: writes refused is critical', () => {
  it('green and nothing refused: 0', () => {
    expect(report().critical).toEqual([]);
    expect(statusExitCode(report())).toBe(0);
  });

  it('a cluster-wide block: 2, naming the request that lifts it', () => {
    const r = report({ settings: settings({ cluster: { blocks: { read_only_allow_delete: 'true' } } }) });
    expect(r.critical).toEqual([
      'cluster.blocks.read_only_allow_delete is set: every index refuses writes and new indices; lift it with PUT /_cluster/settings {"persistent":{"cluster.blocks.read_only_allow_delete":null}}',
    ]);
    expect(statusExitCode(r)).toBe(2);
  });

  it('shard capacity exhausted: counted from health before 8.7, the health report after', () => {
    const full = report({ health: health(1000), settings: settings({ cluster: { max_shards_per_node: '1000' } }) });
    expect(full.critical[0]).toMatch(/^shard capacity exhausted \(1000 of 1000 shards open\): new indices are refused/);
    expect(statusExitCode(full)).toBe(2);
    expect(report({ health: health(999) }).critical).toEqual([]);
    const indicator = (status: string) => ({
      status: 'green' as const,
      indicators: [
        {
          name: 'shards_capacity',
          status,
          symptom: 'Cluster is close to reaching the configured maximum number of shards for data nodes.',
          impacts: [],
          diagnosis: [],
        },
      ],
    });
    const red = report({ health: health(990), healthReport: indicator('red') as never });
    expect(red.critical[0]).toMatch(
      /^shard capacity: the health report is red: Cluster is close to reaching .* \(990 of 1000 shards open\)/,
    );
    expect(report({ health: health(1000), healthReport: indicator('green') as never }).critical).toEqual([]);
  });
});
