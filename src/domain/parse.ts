// Turns Elasticsearch responses (as requested by cluster/, see cluster/resources.ts) into domain
// types. Pure: tested against responses recorded from a real node in test/fixtures/.
import { flattenSettings } from './flat-settings';
import { lettersOfRoles } from './nodes/roles';
import { allocationLimits } from './maintenance/allocation-limits';
import type {
  ClusterHealth,
  ClusterSettingsView,
  HealthReport,
  HealthIndicator,
  HealthStatus,
  IndexBlocks,
  IndexRow,
  IndicatorStatus,
  NodeDisk,
  NodeInfo,
  NodeSearchStats,
  ShardRow,
} from './types';
import { parseWatermark } from './nodes/disk';
import { compareText } from './text/order';

type Json = Record<string, unknown>;

/** _cat values arrive as strings (or null); numbers we did not get count as 0. */
export function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : 0;
  }
  return 0;
}

function numOrNull(v: unknown): number | null {
  return v === null || v === undefined || v === '' ? null : num(v);
}

function str(v: unknown): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an object where a scalar belongs shows as [object Object], never as its (untrusted, unbounded) JSON
  return typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
}

function health(v: unknown): HealthStatus | 'unknown' {
  return v === 'green' || v === 'yellow' || v === 'red' ? v : 'unknown';
}

export function parseClusterHealth(r: Json): ClusterHealth {
  return {
    clusterName: str(r.cluster_name),
    status: (health(r.status) === 'unknown' ? 'red' : r.status) as HealthStatus,
    numberOfNodes: num(r.number_of_nodes),
    numberOfDataNodes: num(r.number_of_data_nodes),
    activePrimaryShards: num(r.active_primary_shards),
    activeShards: num(r.active_shards),
    relocatingShards: num(r.relocating_shards),
    initializingShards: num(r.initializing_shards),
    unassignedShards: num(r.unassigned_shards),
    // Answered from 8.16 only; absent is unknown, not 0 (a red 8.6 cluster has an unassigned primary).
    unassignedPrimaryShards: r.unassigned_primary_shards === undefined ? null : num(r.unassigned_primary_shards),
    delayedUnassignedShards: num(r.delayed_unassigned_shards),
    pendingTasks: num(r.number_of_pending_tasks),
    activeShardsPercent: num(r.active_shards_percent_as_number),
  };
}

function indicatorStatus(v: unknown): IndicatorStatus {
  return v === 'green' || v === 'yellow' || v === 'red' || v === 'unavailable' ? v : 'unknown';
}

const statusOrder: Record<IndicatorStatus, number> = { red: 0, yellow: 1, unknown: 2, unavailable: 3, green: 4 };

export function parseHealthReport(r: Json): HealthReport {
  const raw = (r.indicators ?? {}) as Record<string, Json>;
  const indicators: HealthIndicator[] = Object.entries(raw).map(([name, ind]) => ({
    name,
    status: indicatorStatus(ind.status),
    symptom: str(ind.symptom),
    impacts: ((ind.impacts as Json[] | undefined) ?? []).map((i) => ({
      severity: num(i.severity),
      description: str(i.description),
      areas: (i.impact_areas as string[] | undefined) ?? [],
    })),
    diagnoses: ((ind.diagnosis as Json[] | undefined) ?? []).map((d) => ({
      cause: str(d.cause),
      action: str(d.action),
      helpUrl: d.help_url ? str(d.help_url) : undefined,
      affectedIndices: (((d.affected_resources as Json | undefined)?.indices as string[] | undefined) ?? []).slice(),
    })),
  }));
  // Worst first, so the pane shows what needs attention at the top.
  indicators.sort((a, b) => statusOrder[a.status] - statusOrder[b.status] || compareText(a.name, b.name));
  return { status: indicatorStatus(r.status), indicators };
}

export function isSystemIndex(name: string): boolean {
  return name.startsWith('.');
}

/**
 * Rows of the previous snapshot that a new answer repeats are kept, not copied: at 100,000 indices
 * a poll then allocates only the rows that changed (memory), the store sees an unchanged table by
 * identity (services/poller.ts: no redraw), and the panes reuse what they derived from a row. A row
 * is looked for at its old position first (Elasticsearch answers in a stable order), then by key.
 */
function byKeyOf<T>(prev: readonly T[] | undefined, keyOf: (row: T) => string): (key: string) => T | undefined {
  let byKey: Map<string, T> | undefined;
  return (key) => {
    if (!prev) return undefined;
    if (!byKey) {
      byKey = new Map();
      for (const r of prev) byKey.set(keyOf(r), r);
    }
    const old = byKey.get(key);
    byKey.delete(key); // a key the answer repeats (unassigned copies) finds a row once
    return old;
  };
}

/**
 * A parser of a big table fed one raw row at a time, as the answer streams in (cluster/connection.ts
 * readRows): only a slice of raw rows is alive at once, never the whole answer. `done` gives the table.
 */
export interface RowsParser<T> {
  add(r: Json): void;
  done(): T;
}

/**
 * The next table, sized like the last one (a poll mostly answers as many rows): grown a push at a
 * time, a 100,000-row array is copied ~20 times into V8's large-object space on every poll (peak
 * RSS, issue 29). trimmed() cuts it to the rows given.
 */
function sizedLike<T>(prev: readonly unknown[] | undefined): T[] {
  return prev ? new Array<T>(prev.length) : [];
}

function trimmed<T>(out: T[], n: number): T[] {
  if (out.length !== n) out.length = n;
  return out;
}

function parseAll<T>(parser: RowsParser<T>, rows: Iterable<Json>): T {
  for (const r of rows) parser.add(r);
  return parser.done();
}

/** _cat/indices, a row at a time (see RowsParser), keeping the rows of `prev` it repeats. */
export function catIndicesParser(prev?: readonly IndexRow[]): RowsParser<IndexRow[]> {
  const find = byKeyOf(prev, (r) => r.name);
  const out = sizedLike<IndexRow>(prev);
  let i = 0;
  return {
    add(r) {
      const name = str(r.index);
      const h = health(r.health);
      const status = str(r.status);
      const primaries = num(r.pri);
      const replicas = num(r.rep);
      const docsCount = num(r['docs.count']);
      const docsDeleted = num(r['docs.deleted']);
      const storeBytes = num(r['store.size']);
      const priStoreBytes = num(r['pri.store.size']);
      const at = prev?.[i];
      const o = at !== undefined && at.name === name ? at : find(name);
      out[i++] =
        o !== undefined &&
        o.health === h &&
        o.status === status &&
        o.primaries === primaries &&
        o.replicas === replicas &&
        o.docsCount === docsCount &&
        o.docsDeleted === docsDeleted &&
        o.storeBytes === storeBytes &&
        o.priStoreBytes === priStoreBytes
          ? o
          : // A changed row keeps the old row's name: the answer's copy then dies young (memory at 100,000 indices).
            {
              name: o?.name ?? name,
              health: h,
              status,
              primaries,
              replicas,
              docsCount,
              docsDeleted,
              storeBytes,
              priStoreBytes,
              system: o?.system ?? isSystemIndex(name),
            };
    },
    done: () => trimmed(out, i),
  };
}

/** `rows`: an array, or the rows of an answer as they are decoded. */
export function parseCatIndices(rows: Iterable<Json>, prev?: readonly IndexRow[]): IndexRow[] {
  return parseAll(catIndicesParser(prev), rows);
}

const shardKey = (index: string, shard: number, primary: boolean, node: string | null) =>
  `${index}/${shard}/${primary ? 'p' : 'r'}/${node ?? ''}`;

/** _cat/shards, a row at a time (see RowsParser), keeping the rows of `prev` it repeats. */
export function catShardsParser(prev?: readonly ShardRow[]): RowsParser<ShardRow[]> {
  const find = byKeyOf(prev, (r) => shardKey(r.index, r.shard, r.primary, r.node));
  const out = sizedLike<ShardRow>(prev);
  let i = 0;
  let lastIndex = '';
  return {
    add(r) {
      // The copies of one index arrive together: one name string for all of them, not one each.
      const raw = str(r.index);
      const index = raw === lastIndex ? lastIndex : (lastIndex = prev?.[i]?.index === raw ? prev[i].index : raw);
      const shard = num(r.shard);
      const primary = r.prirep === 'p';
      const state = str(r.state);
      const node = r.node ? str(r.node) : null;
      const docs = numOrNull(r.docs);
      const storeBytes = numOrNull(r.store);
      const unassignedReason = r['unassigned.reason'] ? str(r['unassigned.reason']) : null;
      const unassignedDetails = r['unassigned.details'] ? str(r['unassigned.details']) : null;
      const at = prev?.[i];
      // Most rows of a poll are where they were: the key string is built only for those that moved.
      const o =
        at !== undefined && at.index === index && at.shard === shard && at.primary === primary && at.node === node
          ? at
          : prev && find(shardKey(index, shard, primary, node));
      out[i++] =
        o !== undefined &&
        o.state === state &&
        o.docs === docs &&
        o.storeBytes === storeBytes &&
        o.unassignedReason === unassignedReason &&
        o.unassignedDetails === unassignedDetails
          ? o
          : { index, shard, primary, state, node: o?.node ?? node, docs, storeBytes, unassignedReason, unassignedDetails };
    },
    done: () => trimmed(out, i),
  };
}

export function parseCatShards(rows: Iterable<Json>, prev?: readonly ShardRow[]): ShardRow[] {
  return parseAll(catShardsParser(prev), rows);
}

/** _cat/allocation; the pseudo-node "UNASSIGNED" (shards without a node) is not a disk. */
export function parseCatAllocation(rows: Json[]): NodeDisk[] {
  return rows
    .filter((r) => r.node !== 'UNASSIGNED' && r['disk.total'] !== null && r['disk.total'] !== undefined)
    .map((r) => ({
      node: str(r.node),
      host: r.host ? str(r.host) : null,
      ip: r.ip ? str(r.ip) : null,
      shards: num(r.shards),
      indicesBytes: num(r['disk.indices']),
      usedBytes: num(r['disk.used']),
      availBytes: num(r['disk.avail']),
      totalBytes: num(r['disk.total']),
    }))
    .sort((a, b) => compareText(a.node, b.node));
}

/**
 * The effective value of each setting: transient wins over persistent, persistent over defaults
 * (Elasticsearch's own precedence for cluster settings).
 */
export function effectiveSettings(r: Json): Record<string, string> {
  return {
    ...flattenSettings(r.defaults),
    ...flattenSettings(r.persistent),
    ...flattenSettings(r.transient),
  };
}

const WM = 'cluster.routing.allocation.disk.watermark';

export function parseClusterSettings(r: Json): ClusterSettingsView {
  const s = effectiveSettings(r);
  const wm = (level: 'low' | 'high' | 'flood_stage', fallback: string) =>
    parseWatermark(s[`${WM}.${level}`] ?? fallback, s[`${WM}.${level}.max_headroom`]);
  return {
    watermarks: {
      low: wm('low', '85%'),
      high: wm('high', '90%'),
      flood: wm('flood_stage', '95%'),
      thresholdEnabled: (s['cluster.routing.allocation.disk.threshold_enabled'] ?? 'true') !== 'false',
    },
    maxOpenScrollContext: num(s['search.max_open_scroll_context'] ?? '500'),
    allocationLimits: allocationLimits(s),
    maxShardsPerNode: num(s['cluster.max_shards_per_node'] ?? '1000'),
    maxShardsPerNodeFrozen: num(s['cluster.max_shards_per_node.frozen'] ?? '3000'),
    clusterBlocks: {
      readOnly: s['cluster.blocks.read_only'] === 'true',
      readOnlyAllowDelete: s['cluster.blocks.read_only_allow_delete'] === 'true',
    },
    destructiveRequiresName: (s['action.destructive_requires_name'] ?? 'true') !== 'false',
    sameShardHost: s['cluster.routing.allocation.same_shard.host'] === 'true',
    frozenFlood: parseWatermark(s[`${WM}.flood_stage.frozen`] ?? '95%', s[`${WM}.flood_stage.frozen.max_headroom`] ?? '20GB'),
  };
}

/**
 * Block ids of an index in the cluster state (Elasticsearch's IndexMetadata, the same since 6.x):
 * index.blocks.read_only is 5, index.blocks.write 8, index.blocks.read_only_allow_delete 12.
 */
const READ_ONLY_BLOCK = '5';
const WRITE_BLOCK = '8';
const READ_ONLY_ALLOW_DELETE_BLOCK = '12';

/** GET _cluster/state/blocks filtered to the index blocks: only indices with a block appear. */
export function parseIndexBlocks(r: Json): IndexBlocks[] {
  const indices = ((r.blocks as Json | undefined)?.indices ?? {}) as Record<string, Json>;
  return Object.entries(indices)
    .map(([index, ids]) => ({
      index,
      readOnlyAllowDelete: READ_ONLY_ALLOW_DELETE_BLOCK in ids,
      readOnly: READ_ONLY_BLOCK in ids,
      write: WRITE_BLOCK in ids,
    }))
    .filter((b) => b.readOnlyAllowDelete || b.readOnly || b.write)
    .sort((a, b) => compareText(a.index, b.index));
}

/** The filter of the nodes' info read: each node's identity, nothing it must compute. */
export const NODES_INFO_FILTER = 'nodes.*.name,nodes.*.ip,nodes.*.version,nodes.*.roles';

/**
 * The nodes of GET _nodes/_all/_none (each node's name, address, version and roles) with the
 * elected master of GET _cluster/state/master_node. Not _cat/nodes: that works out every index
 * statistic of every shard of each node whatever columns are asked (issue 45); these cost the same
 * at 10 indices and 5,000.
 */
export function parseNodesInfo(info: Json, _prev?: unknown, state?: Json): NodeInfo[] {
  const nodes = (info.nodes ?? {}) as Record<string, Json>;
  return Object.entries(nodes)
    .map(([id, n]) => ({
      id,
      name: str(n.name),
      ip: str(n.ip),
      version: str(n.version),
      roles: lettersOfRoles(Array.isArray(n.roles) ? n.roles.map(String) : []),
      master: id === state?.master_node,
    }))
    .sort((a, b) => compareText(a.name, b.name));
}

export function parseNodeSearchStats(r: Json): NodeSearchStats[] {
  const nodes = (r.nodes ?? {}) as Record<string, Json>;
  return Object.values(nodes)
    .map((n) => {
      const search = ((n.indices as Json | undefined)?.search ?? {}) as Json;
      return { name: str(n.name), openContexts: num(search.open_contexts), scrollCurrent: num(search.scroll_current) };
    })
    .sort((a, b) => compareText(a.name, b.name));
}

/** One task the node is running (GET _tasks?group_by=none), as the Tasks pane and `shardeck tasks --all` show it. */
export interface ClusterTask {
  /** "nodeId:number", the id cancel and rethrottle name. */
  id: string;
  node: string;
  action: string;
  /** As the node sent it: untrusted (a by-query's description holds the operator's query); escaped where shown. */
  description: string;
  runningMillis: number;
  cancellable: boolean;
  cancelled: boolean;
  /** The task that started it (a by-query's slices, a search's shard requests), or null. */
  parent: string | null;
  /** A by-query or reindex task's progress, or null for other tasks. */
  status: { total: number; done: number; batches: number; versionConflicts: number; requestsPerSecond: number } | null;
}

/** GET _tasks?detailed=true&group_by=none: the flat list, parents named by parent_task_id. */
export function parseTasks(r: Json): ClusterTask[] {
  const list = Array.isArray(r?.tasks) ? (r.tasks as Json[]) : [];
  return list.map((t) => {
    const s = (t.status ?? null) as Json | null;
    const byQuery = s !== null && typeof s === 'object' && 'total' in s;
    return {
      id: `${str(t.node)}:${str(t.id)}`,
      node: str(t.node),
      action: str(t.action),
      description: str(t.description),
      runningMillis: Math.round(num(t.running_time_in_nanos) / 1e6),
      cancellable: t.cancellable === true,
      cancelled: t.cancelled === true,
      parent: typeof t.parent_task_id === 'string' ? t.parent_task_id : null,
      status: byQuery
        ? {
            total: num(s.total),
            // by-query and reindex count what they did in different fields; the pane shows their sum.
            done: num(s.deleted) + num(s.updated) + num(s.created),
            batches: num(s.batches),
            versionConflicts: num(s.version_conflicts),
            requestsPerSecond: s.requests_per_second === undefined ? -1 : num(s.requests_per_second),
          }
        : null,
    };
  });
}
