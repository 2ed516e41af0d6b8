// Shard capacity (issue 41, the platform's commonest outage): every project index has the template's
// shards, and the cluster holds at most cluster.max_shards_per_node x data nodes open shards
// (primaries and replicas of open indices, unassigned included). Past it, creating an index fails
// ("this action would add [6] shards, but this cluster currently has [996]/[1000] maximum normal
// shards open"), so a new project gets no index. Judged as a share of the limit and as how many
// more project indices fit. Pure.
import type { Finding } from './finding';

export interface CapacityInputs {
  /** Open shards counted against the normal limit (primaries x (1 + replicas) of open indices). */
  openShards: number;
  /** Data nodes that count for the normal limit (every data node but frozen-only ones). */
  dataNodes: number;
  maxShardsPerNode: number;
  /** What one new project index takes: the platform template's shards x (1 + replicas). */
  template: { name: string | null; shards: number; replicas: number };
  /** How it was counted ("from the open indices", "from _cluster/health"), for the evidence. */
  source: string;
}

export interface Capacity {
  limit: number;
  open: number;
  share: number;
  perProject: number;
  /** How many more project indices fit (0: the next one is refused). */
  fit: number;
}

export function shardCapacity(i: Pick<CapacityInputs, 'openShards' | 'dataNodes' | 'maxShardsPerNode' | 'template'>): Capacity {
  const limit = i.maxShardsPerNode * Math.max(i.dataNodes, 0);
  const perProject = Math.max(1, i.template.shards * (1 + i.template.replicas));
  return {
    limit,
    open: i.openShards,
    share: limit > 0 ? i.openShards / limit : 1,
    perProject,
    fit: Math.max(0, Math.floor((limit - i.openShards) / perProject)),
  };
}

/** The usual thresholds (the health report's shards_capacity goes yellow near the limit, red at it): warn from 85% or fewer than 10 project indices. */
export const CAPACITY_WARN_SHARE = 0.85;
export const CAPACITY_WARN_FIT = 10;
/** Above Elasticsearch's default: each shard costs heap and cluster state (the catalogue's "limit raised"). */
export const DEFAULT_MAX_SHARDS_PER_NODE = 1000;

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

export function capacityFindings(i: CapacityInputs): Finding[] {
  const c = shardCapacity(i);
  const t = i.template;
  const per = `${t.shards} shard${t.shards === 1 ? '' : 's'} x ${1 + t.replicas} cop${t.replicas === 0 ? 'y' : 'ies'}${t.name ? ` (template ${t.name})` : ' (no platform template: Elasticsearch defaults)'}`;
  const evidence = [
    `${c.open} open shards of ${c.limit} (${i.dataNodes} data node${i.dataNodes === 1 ? '' : 's'} x cluster.max_shards_per_node ${i.maxShardsPerNode}), ${i.source}`,
    `a project index takes ${c.perProject}: ${per}`,
  ];
  const severity = c.fit < 1 ? 'critical' : c.share >= CAPACITY_WARN_SHARE || c.fit < CAPACITY_WARN_FIT ? 'warn' : 'ok';
  const finding =
    severity === 'critical'
      ? `shard capacity exhausted (${pct(c.share)}): the next project index is refused ("this action would add [${c.perProject}] shards")`
      : `shard capacity ${pct(c.share)} used: ${c.fit} more project ind${c.fit === 1 ? 'ex fits' : 'ices fit'}`;
  const out: Finding[] = [
    {
      id: 'capacity.shards',
      family: 'capacity',
      severity,
      finding,
      evidence,
      ...(severity === 'ok'
        ? {}
        : {
            remedy:
              `fewer shards per project index (shardeck shrink INDEX --shards 1: six 1-shard indices take what one 6-shard index took; and number_of_shards 1 in ${t.name ?? 'the template'}), ` +
              'close or delete project indices no longer used (shardeck cat indices lists them with their documents), ' +
              `or, last, raise cluster.max_shards_per_node (each shard costs heap and cluster state: measure the heap first)`,
            fix: { command: 'shardeck shrink INDEX --shards 1 --dry-run' },
          }),
    },
  ];
  if (i.maxShardsPerNode > DEFAULT_MAX_SHARDS_PER_NODE)
    out.push({
      id: 'capacity.limit-raised',
      family: 'capacity',
      severity: 'warn',
      finding: `cluster.max_shards_per_node is ${i.maxShardsPerNode}, above the default ${DEFAULT_MAX_SHARDS_PER_NODE}: more shards per node than Elasticsearch plans heap for`,
      evidence: [`cluster.max_shards_per_node = ${i.maxShardsPerNode}`],
      remedy:
        'fewer, larger shards instead (shardeck shrink), then set it back: PUT /_cluster/settings {"persistent":{"cluster.max_shards_per_node":null}}',
    });
  return out;
}
