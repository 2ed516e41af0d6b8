// Domain types: what the panes show, independent of how Elasticsearch spells it.
import type { AllocationLimit } from './maintenance/allocation-limits';

export type HealthStatus = 'green' | 'yellow' | 'red';
export type IndicatorStatus = HealthStatus | 'unknown' | 'unavailable';

export interface ClusterHealth {
  clusterName: string;
  status: HealthStatus;
  numberOfNodes: number;
  numberOfDataNodes: number;
  activePrimaryShards: number;
  activeShards: number;
  relocatingShards: number;
  initializingShards: number;
  unassignedShards: number;
  /** null before 8.16: the node does not say (domain/capabilities.ts); the shard list tells. */
  unassignedPrimaryShards: number | null;
  delayedUnassignedShards: number;
  pendingTasks: number;
  activeShardsPercent: number;
}

export interface HealthImpact {
  severity: number;
  description: string;
  areas: string[];
}

export interface HealthDiagnosis {
  cause: string;
  action: string;
  helpUrl?: string;
  affectedIndices: string[];
}

export interface HealthIndicator {
  name: string;
  status: IndicatorStatus;
  symptom: string;
  impacts: HealthImpact[];
  /** Only present when fetched with verbose=true (the expensive analysis). */
  diagnoses: HealthDiagnosis[];
}

export interface HealthReport {
  status: IndicatorStatus;
  indicators: HealthIndicator[];
}

export interface IndexRow {
  name: string;
  health: HealthStatus | 'unknown';
  /** 'open' or 'close' (as _cat/indices says it); kept a string for whatever else it may say. */
  status: string;
  primaries: number;
  replicas: number;
  docsCount: number;
  docsDeleted: number;
  storeBytes: number;
  priStoreBytes: number;
  /** Hidden (dot) or system index. */
  system: boolean;
}

/** STARTED, UNASSIGNED, INITIALIZING or RELOCATING; a string for any state a later version adds. */
export type ShardState = string;

export interface ShardRow {
  index: string;
  shard: number;
  primary: boolean;
  state: ShardState;
  node: string | null;
  docs: number | null;
  storeBytes: number | null;
  unassignedReason: string | null;
  unassignedDetails: string | null;
}

/** Disk usage of one data node as Elasticsearch's allocator sees it (_cat/allocation). */
export interface NodeDisk {
  node: string;
  host: string | null;
  ip: string | null;
  shards: number;
  indicesBytes: number;
  usedBytes: number;
  availBytes: number;
  totalBytes: number;
}

/** A watermark as configured: a share of the disk used, or an absolute amount of free space. */
export type WatermarkValue = { kind: 'percent'; usedPercent: number } | { kind: 'free'; freeBytes: number };

export interface Watermark {
  value: WatermarkValue;
  /** Caps the free space a percentage watermark asks for; null when not in force (-1). */
  maxHeadroomBytes: number | null;
  raw: string;
}

export interface Watermarks {
  low: Watermark;
  high: Watermark;
  flood: Watermark;
  thresholdEnabled: boolean;
}

export interface ClusterSettingsView {
  watermarks: Watermarks;
  maxOpenScrollContext: number;
  /** What limits allocation or rebalancing now (enable, rebalance, excludes), whoever set it. */
  allocationLimits: AllocationLimit[];
  /** cluster.max_shards_per_node and its .frozen twin (defaults 1,000 and 3,000). */
  maxShardsPerNode: number;
  maxShardsPerNodeFrozen: number;
  /** cluster.blocks.read_only / read_only_allow_delete: every index refuses writes while either is set. */
  clusterBlocks: { readOnly: boolean; readOnlyAllowDelete: boolean };
  /** action.destructive_requires_name (default true in 8.x): false lets a wildcard delete every index. */
  destructiveRequiresName: boolean;
  /** cluster.routing.allocation.same_shard.host (default false): copies of a shard kept off nodes of one host. */
  sameShardHost?: boolean;
  /** The frozen tier's flood stage (cluster.routing.allocation.disk.watermark.flood_stage.frozen and its max_headroom). */
  frozenFlood?: Watermark;
}

export type DiskLevel = 'ok' | 'low' | 'high' | 'flood';

export interface IndexBlocks {
  index: string;
  readOnlyAllowDelete: boolean;
  readOnly: boolean;
  write: boolean;
}

/** A node as the cluster state lists it (GET _cluster/state/nodes,master_node): who it is, not how it is doing. */
export interface NodeInfo {
  id: string;
  name: string;
  /** The transport address's host part (the port left out), as _cat/nodes shows it. */
  ip: string;
  version: string;
  /** Role letters as _cat/nodes abbreviates them ("cdfhilmrstw"; "-" for coordinating only). */
  roles: string;
  master: boolean;
}

export interface NodeSearchStats {
  name: string;
  openContexts: number;
  scrollCurrent: number;
}
