// The status report: the facts of the Health and Disk panes in one stable shape, for
// `shardeck status` (text and --json) and monitoring checks. Pure.
import { shardCapacity } from '../doctor/capacity';
import { shutdownWarning, type ShutdownRecord } from '../maintenance/shutdown';
import { diskRows, type DiskRow } from '../nodes/disk';
import { countOf, formatBytes } from '../text/format';
import { nodeLeftShards } from '../nodes/node-watch';
import type { AllocationLimit } from '../maintenance/allocation-limits';
import type {
  ClusterHealth,
  ClusterSettingsView,
  HealthReport,
  HealthStatus,
  IndexBlocks,
  NodeDisk,
  NodeInfo,
  ShardRow,
  Watermark,
} from '../types';
import { compareText } from '../text/order';

/** Bumped only on an incompatible change of the --json shape (documented in docs/WATCH.md). */
export const STATUS_SCHEMA = 1;

export interface UnassignedShard {
  index: string;
  shard: number;
  primary: boolean;
  reason: string | null;
  details: string | null;
}

export interface StatusReport {
  schema: typeof STATUS_SCHEMA;
  reachable: true;
  status: HealthStatus;
  cluster: { name: string; version: string | null; nodes: number; dataNodes: number };
  shards: {
    activePrimary: number;
    active: number;
    relocating: number;
    initializing: number;
    unassigned: number;
    unassignedPrimary: number;
    delayedUnassigned: number;
    activePercent: number;
  };
  pendingTasks: number;
  indicators: { name: string; status: string; symptom: string; impacts: string[] }[];
  /** Why the cluster is not green: the unassigned shards with Elasticsearch's reason. */
  unassigned: UnassignedShard[];
  disk: {
    watermarks: { low: string; high: string; flood: string; enabled: boolean };
    nodes: DiskRow[];
  };
  readOnlyIndices: string[];
  /**
   * A node left the cluster (shards unassigned with NODE_LEFT): how many shards, how many wait out
   * the delayed allocation (index.unassigned.node_left.delayed_timeout), and the ids of the nodes
   * that left, from the shards' details. null when no shard is unassigned for that reason.
   */
  nodeLeft: { shards: number; delayed: number; nodeIds: string[] } | null;
  /**
   * What limits shard allocation or rebalancing now (cluster.routing.allocation.enable or
   * rebalance.enable not "all", an allocation exclude), whoever set it: a green cluster with one
   * exits 1, as a planned restart forgotten half-way is the classic outage.
   */
  allocationLimits: AllocationLimit[];
  /**
   * Node shutdown records an orchestrator left (GET _nodes/shutdown; Elasticsearch never removes
   * them): each still acts (a RESTART delays reallocation, a REMOVE drains the node). A green
   * cluster with one exits 1. Empty where the node has no shutdown module or may not read them.
   */
  shutdownRecords: (ShutdownRecord & { node: string | null; text: string })[];
  /**
   * Why writes are refused or data is at risk whatever the colour (issue 41): a cluster-wide block,
   * shard capacity exhausted (no new project index). Any makes status exit 2, as red does.
   */
  critical: string[];
}

export interface UnreachableReport {
  schema: typeof STATUS_SCHEMA;
  reachable: false;
  status: 'unknown';
  error: { kind: string; message: string };
}

export interface StatusInputs {
  health: ClusterHealth;
  healthReport?: HealthReport;
  allocation: NodeDisk[];
  settings: ClusterSettingsView;
  blocks: IndexBlocks[];
  nodes?: NodeInfo[];
  shards?: ShardRow[];
  shutdown?: ShutdownRecord[];
  now?: number;
}

function describe(w: Watermark): string {
  return w.maxHeadroomBytes === null ? w.raw : `${w.raw} (max headroom ${formatBytes(w.maxHeadroomBytes)})`;
}

/** The Elasticsearch versions the nodes run, comma-separated (one, unless mid-upgrade). */
export function nodeVersions(nodes: readonly { version: string }[] | undefined): string | undefined {
  return nodes ? [...new Set(nodes.map((n) => n.version))].join(',') : undefined;
}

export function buildStatusReport(i: StatusInputs): StatusReport {
  return {
    schema: STATUS_SCHEMA,
    reachable: true,
    status: i.health.status,
    cluster: {
      name: i.health.clusterName,
      version: nodeVersions(i.nodes) || null,
      nodes: i.health.numberOfNodes,
      dataNodes: i.health.numberOfDataNodes,
    },
    shards: {
      activePrimary: i.health.activePrimaryShards,
      active: i.health.activeShards,
      relocating: i.health.relocatingShards,
      initializing: i.health.initializingShards,
      unassigned: i.health.unassignedShards,
      unassignedPrimary: unassignedPrimaries(i.health, i.shards),
      delayedUnassigned: i.health.delayedUnassignedShards,
      activePercent: Math.round(i.health.activeShardsPercent * 10) / 10,
    },
    pendingTasks: i.health.pendingTasks,
    indicators: (i.healthReport?.indicators ?? []).map((ind) => ({
      name: ind.name,
      status: ind.status,
      symptom: ind.symptom,
      impacts: ind.impacts.map((x) => x.description),
    })),
    unassigned: (i.shards ?? [])
      .filter((s) => s.state === 'UNASSIGNED')
      .map((s) => ({ index: s.index, shard: s.shard, primary: s.primary, reason: s.unassignedReason, details: s.unassignedDetails }))
      // Primaries first: an unassigned primary is what makes a cluster red.
      .sort((a, b) => Number(b.primary) - Number(a.primary) || compareText(a.index, b.index) || a.shard - b.shard),
    disk: {
      watermarks: {
        low: describe(i.settings.watermarks.low),
        high: describe(i.settings.watermarks.high),
        flood: describe(i.settings.watermarks.flood),
        enabled: i.settings.watermarks.thresholdEnabled,
      },
      nodes: diskRows(i.allocation, i.settings.watermarks),
    },
    readOnlyIndices: i.blocks.filter((b) => b.readOnlyAllowDelete || b.readOnly).map((b) => b.index),
    nodeLeft: nodeLeftOf(i),
    allocationLimits: i.settings.allocationLimits,
    shutdownRecords: (i.shutdown ?? []).map((r) => {
      const node = i.nodes?.find((n) => n.id === r.nodeId)?.name ?? null;
      return { ...r, node, text: shutdownWarning(r, node ?? undefined, i.now ?? Date.now()) };
    }),
    critical: criticalOf(i),
  };
}

/** What refuses writes or new indices now, one sentence each, with what lifts it. */
function criticalOf(i: StatusInputs): string[] {
  const out: string[] = [];
  const cb = i.settings.clusterBlocks;
  for (const [on, setting] of [
    [cb.readOnly, 'cluster.blocks.read_only'],
    [cb.readOnlyAllowDelete, 'cluster.blocks.read_only_allow_delete'],
  ] as const)
    if (on)
      out.push(
        `${setting} is set: every index refuses writes and new indices; lift it with PUT /_cluster/settings {"persistent":{"${setting}":null}}`,
      );
  // The node's own judgement on 8.7+; before, counted from health (every open and closed copy: an upper bound).
  const indicator = i.healthReport?.indicators.find((x) => x.name === 'shards_capacity');
  const c = shardCapacity({
    openShards: i.health.activeShards + i.health.initializingShards + i.health.unassignedShards,
    dataNodes: i.health.numberOfDataNodes,
    maxShardsPerNode: i.settings.maxShardsPerNode,
    template: { name: null, shards: 1, replicas: 0 },
  });
  if (indicator?.status === 'red')
    out.push(
      `shard capacity: the health report is red: ${indicator.symptom} (${c.open} of ${c.limit} shards open); a new index is refused once none is left: shardeck doctor capacity.shards says how many more fit`,
    );
  else if (!indicator && c.fit < 1)
    out.push(
      `shard capacity exhausted (${c.open} of ${c.limit} shards open): new indices are refused; shardeck doctor capacity.shards says what to do`,
    );
  return out;
}

/** As the node says it (8.16+), else counted from the shard list (known whenever the cluster is not green). */
export function unassignedPrimaries(h: ClusterHealth, shards: readonly ShardRow[] | undefined): number {
  return h.unassignedPrimaryShards ?? (shards ?? []).filter((s) => s.primary && s.state === 'UNASSIGNED').length;
}

function nodeLeftOf(i: StatusInputs): StatusReport['nodeLeft'] {
  const left = nodeLeftShards(i.shards);
  if (left.shards === 0 && i.health.delayedUnassignedShards === 0) return null;
  return { shards: left.shards, delayed: i.health.delayedUnassignedShards, nodeIds: left.nodeIds };
}

/** Exit codes like a monitoring check: 0 green, 1 yellow (or green with allocation limited or a shutdown record), 2 red or writes refused (a cluster block, capacity exhausted), 3 unreachable or unauthorized. */
export function statusExitCode(r: StatusReport | UnreachableReport): number {
  if (!r.reachable) return 3;
  if (r.critical.length) return 2;
  return r.status === 'green' ? (r.allocationLimits.length || r.shutdownRecords.length ? 1 : 0) : r.status === 'yellow' ? 1 : 2;
}

/** One line on why the cluster is not green, from the unassigned shards. */
export function explainNotGreen(r: StatusReport): string | null {
  if (r.status === 'green') return null;
  const byReason = new Map<string, number>();
  for (const u of r.unassigned) {
    const key = `${u.primary ? 'primary' : 'replica'} ${u.reason ?? 'unknown reason'}`;
    byReason.set(key, (byReason.get(key) ?? 0) + 1);
  }
  const parts = [...byReason].map(([k, n]) => `${n} ${k}`);
  const singleNodeReplicas =
    r.cluster.dataNodes === 1 && r.unassigned.length > 0 && r.unassigned.every((u) => !u.primary)
      ? ': replicas cannot be placed on a single-node cluster (set number_of_replicas to 0 on the index and its template)'
      : '';
  if (parts.length === 0) return countOf(r.shards.unassigned, 'unassigned shard');
  return `unassigned shards: ${parts.join(', ')}${singleNodeReplicas}`;
}
