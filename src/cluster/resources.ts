// The reads behind the live panes, one entry per resource: the request (asking only for the columns
// shown: `h=`, `bytes=b`, `filter_path`, so a poll costs the node as little as possible), the parser
// that turns its answer into domain types and how often it is polled (each pane names the reads it
// needs in domain/panes.ts).
// The store's snapshots, the poller and the subcommands all take the list from here.
// dev/record-fixtures.ts replays exactly these requests against a real node to record test fixtures.
import {
  catIndicesParser,
  catShardsParser,
  parseCatAllocation,
  parseCatIndices,
  NODES_INFO_FILTER,
  parseNodesInfo,
  parseCatShards,
  parseClusterHealth,
  parseClusterSettings,
  parseHealthReport,
  parseIndexBlocks,
  parseTasks,
  type RowsParser,
} from '../domain/parse';
import { parseNodeFigures, parseNodeJvm } from '../domain/nodes/node-stats';
import { NODE_PRESSURE_FILTER } from '../domain/nodes/node-pressure';
import { PENDING_TASKS_FILTER, parsePendingTasks } from '../domain/inspect/pending-tasks';
import { PANE_DECLARATIONS, type PaneId } from '../domain/panes';
import { parseRecovery, parseRepositories, parseSnapshots, parseSnapshotStatus, restoreRecoveries } from '../domain/snapshots';
import type { Feature } from '../domain/capabilities';
import { parseBalanceSummary } from '../domain/nodes/balance';
import { parseShutdownRecords } from '../domain/maintenance/shutdown';
import { activeRecoveries } from '../domain/nodes/shard-recovery';
import type { ReadRequest } from './connection';

function cat(path: string, h: string[], extra: Record<string, string> = {}): ReadRequest {
  return { method: 'GET', path, querystring: { format: 'json', bytes: 'b', h: h.join(','), ...extra } };
}

interface Resource<T> {
  request: ReadRequest;
  /** A second read sent beside the first, for a part its answer lacks; `parse` gets both answers. */
  alongside?: ReadRequest;
  /** `prev`, the data of the last poll: the big tables keep the rows it repeats (domain/parse.ts). */
  parse: (body: any, prev?: T, alongside?: any) => T;
  /** Multiple of the base poll interval; settings change rarely. */
  every: number;
  /** A `_cat` table that grows with the cluster: parsed a row at a time as its answer streams in (connection.ts readRows). */
  rowsParser?: (prev?: T) => RowsParser<T>;
  /**
   * Grows with the cluster (one row per index or shard, or worked out over every shard of a node):
   * read less often when a read costs the node much (services/poller.ts).
   */
  grows?: boolean;
  /** A feature not every 8.x has (domain/capabilities.ts): on an older node the read is not sent. */
  needs?: Feature;
}

const NODE_STATS_FILTER = [
  'nodes.*.name',
  'nodes.*.jvm.mem.heap_used_in_bytes',
  'nodes.*.jvm.mem.heap_max_in_bytes',
  'nodes.*.jvm.gc.collectors',
  'nodes.*.indices.fielddata.memory_size_in_bytes',
  'nodes.*.indices.fielddata.evictions',
  'nodes.*.os.mem.total_in_bytes',
  'nodes.*.os.mem.used_in_bytes',
  'nodes.*.os.cpu.percent',
  'nodes.*.os.cpu.load_average',
  'nodes.*.fs.data.path',
  'nodes.*.fs.data.mount',
  'nodes.*.fs.data.total_in_bytes',
  'nodes.*.fs.data.available_in_bytes',
].join(',');

const NODE_SEARCH_FILTER = 'nodes.*.indices.search.open_contexts,nodes.*.indices.search.scroll_current';
/** What the Nodes pane shows of `_nodes/stats`: its statistics, search contexts and pressure. */
const NODE_FIGURES_FILTER = [...new Set([NODE_STATS_FILTER, NODE_SEARCH_FILTER, NODE_PRESSURE_FILTER].flatMap((f) => f.split(',')))].join(
  ',',
);

export const TASKS_FILTER = [
  'tasks.node',
  'tasks.id',
  'tasks.action',
  'tasks.description',
  'tasks.running_time_in_nanos',
  'tasks.cancellable',
  'tasks.cancelled',
  'tasks.parent_task_id',
  'tasks.status.total',
  'tasks.status.deleted',
  'tasks.status.updated',
  'tasks.status.created',
  'tasks.status.batches',
  'tasks.status.version_conflicts',
  'tasks.status.requests_per_second',
].join(',');
const SNAPSHOT_FIELDS = [
  'snapshot',
  'repository',
  'uuid',
  'state',
  'indices',
  'include_global_state',
  'shards',
  'start_time_in_millis',
  'end_time_in_millis',
  'duration_in_millis',
  'failures',
];
const RECOVERY_FIELDS = ['id', 'type', 'stage', 'primary', 'index.size', 'index.files', 'total_time_in_millis', 'source', 'target.name']
  .map((f) => `*.shards.${f}`)
  .join(',');

/** Kept as answered: domain/templates.ts parseTemplates joins the two template reads. */
const asJson = (b: unknown) => (b ?? {}) as Record<string, any>;

const resource = <T>(r: Resource<T>): Resource<T> => r;

/** Every request behind a polled read: its own, and its second one when it has one. */
export function requestsOf(name: keyof typeof RESOURCES): ReadRequest[] {
  const r: Resource<unknown> = RESOURCES[name] as Resource<unknown>;
  return r.alongside ? [r.request, r.alongside] : [r.request];
}

/** The version check's read (cluster/api.ts): only each node's version, from the nodes' info. */
export const VERSIONS_READ = ['/_nodes/_all/_none', { filter_path: 'nodes.*.version' }] as const;

export const RESOURCES = {
  // The node works out every index's health to answer it: on a large cluster (5,000 indices on 3
  // nodes, ~36 ms a read) it is read less often too, and the pane says so.
  health: resource({
    request: { method: 'GET', path: '/_cluster/health', querystring: {} },
    parse: parseClusterHealth,
    every: 1,
    grows: true,
  }),
  // verbose=false skips the expensive root-cause analysis; diagnoses are fetched per indicator on demand.
  // Before 8.7 there is none (8.2-8.6 had an experimental _internal/_health without `verbose`): the
  // Health pane then makes its own diagnosis from the reads below.
  healthReport: resource({
    request: { method: 'GET', path: '/_health_report', querystring: { verbose: 'false' } },
    parse: parseHealthReport,
    every: 2,
    needs: 'healthReport',
  }),
  indices: resource({
    request: cat(
      '/_cat/indices',
      ['health', 'status', 'index', 'pri', 'rep', 'docs.count', 'docs.deleted', 'store.size', 'pri.store.size'],
      {
        expand_wildcards: 'all',
      },
    ),
    parse: parseCatIndices,
    rowsParser: catIndicesParser,
    every: 1,
    grows: true,
  }),
  shards: resource({
    request: cat('/_cat/shards', ['index', 'shard', 'prirep', 'state', 'node', 'docs', 'store', 'unassigned.reason', 'unassigned.details']),
    parse: parseCatShards,
    rowsParser: catShardsParser,
    every: 1,
    grows: true,
  }),
  // The node sums its shards' store sizes to answer it (5,000 indices on 3 nodes: ~120-370 ms a read at load 20).
  allocation: resource({
    request: cat('/_cat/allocation', ['node', 'host', 'ip', 'shards', 'disk.indices', 'disk.used', 'disk.avail', 'disk.total']),
    parse: parseCatAllocation,
    every: 1,
    grows: true,
  }),
  // Nested (not flat_settings): filter_path cannot match dotted flat keys, the real node returns {}.
  settings: resource({
    request: {
      method: 'GET',
      path: '/_cluster/settings',
      querystring: {
        include_defaults: 'true',
        filter_path:
          '*.cluster.routing.allocation.disk.watermark,*.cluster.routing.allocation.disk.threshold_enabled,*.search.max_open_scroll_context,' +
          // What limits allocation (the Health pane and status warn, whoever set it).
          '*.cluster.routing.allocation.enable,*.cluster.routing.rebalance.enable,*.cluster.routing.allocation.exclude,' +
          // Shard capacity, cluster-wide blocks, wildcard deletes (the doctor and status judge them).
          '*.cluster.max_shards_per_node*,*.cluster.blocks,*.action.destructive_requires_name,' +
          // Copies of a shard on nodes of one host (the doctor's config.same-host).
          '*.cluster.routing.allocation.same_shard.host',
      },
    },
    parse: parseClusterSettings,
    every: 6,
  }),
  // The index blocks as the cluster state holds them (only indices that carry one appear). Not
  // GET _all/_settings/index.blocks.*: that answer is as small, but the node walks every index's
  // settings to make it (on 5,000 indices ~180 ms quiet, ~480 ms loaded, per read); the state's
  // blocks are already kept apart, so this read costs the same at 100 and 5,000 indices.
  blocks: resource({
    request: { method: 'GET', path: '/_cluster/state/blocks', querystring: { filter_path: 'blocks.indices' } },
    parse: parseIndexBlocks,
    every: 2,
    grows: true,
  }),
  // Who the nodes are (the nodes' info with no section: name, address, version, roles) and which is
  // the master (the cluster state's master_node): every pane but Indices reads it. Not _cat/nodes,
  // which works out every index statistic of every shard of each node whatever columns are asked
  // (5,000 indices: 0.4-0.9 s a read at load 20); heap, CPU and load are the Nodes pane's
  // statistics read. Not the state's node list alone: it names no version before 8.10.
  nodes: resource({
    request: { method: 'GET', path: '/_nodes/_all/_none', querystring: { filter_path: NODES_INFO_FILTER } },
    alongside: { method: 'GET', path: '/_cluster/state/master_node', querystring: { filter_path: 'master_node' } },
    parse: parseNodesInfo,
    // Every 3rd poll: a node that leaves is seen at once by the health read's node count (the
    // poller reads this again then, services/poller.ts); read every poll, these two small requests
    // were a third of the Health pane's node time at 5,000 indices (issue 45).
    every: 3,
  }),
  // The Nodes pane's statistics, search contexts and pressure (thread pools, breakers, old
  // generation, GC, search and indexing totals) in one read: each index statistic is summed over
  // every shard of the node, one walk for the three (5,000 indices on 3 nodes: three reads of
  // ~355 ms each were the pane's largest cost). Only the fields shown travel; the previous answer
  // gives what changed since (rejections, rates).
  nodeStats: resource({
    request: {
      method: 'GET',
      path: '/_nodes/stats/jvm,os,fs,thread_pool,breaker,indices/fielddata,search,indexing',
      querystring: { filter_path: NODE_FIGURES_FILTER },
    },
    parse: parseNodeFigures,
    every: 1,
    grows: true,
  }),
  // Cluster-state updates the master has queued (the Health pane's section while any exist, and the
  // count is in the health answer too): the master answers from its queue, only the fields shown.
  pendingTasks: resource({
    request: { method: 'GET', path: '/_cluster/pending_tasks', querystring: { filter_path: PENDING_TASKS_FILTER } },
    parse: parsePendingTasks,
    every: 2,
  }),
  // -Xms/-Xmx change only with a restart: read rarely.
  nodeJvm: resource({
    request: { method: 'GET', path: '/_nodes/jvm', querystring: { filter_path: 'nodes.*.name,nodes.*.jvm.input_arguments' } },
    parse: parseNodeJvm,
    every: 30,
  }),
  // The desired balance's stats and per-node part only (the routing table grows with the cluster:
  // `shardeck balance` reads it whole): the Nodes pane's "balancer" line. 8.6+.
  desiredBalance: resource({
    request: { method: 'GET', path: '/_internal/desired_balance', querystring: { filter_path: 'stats,cluster_balance_stats.nodes' } },
    parse: parseBalanceSummary,
    every: 10,
    // filter_path trims the answer, not the work: the node builds every shard's desired assignment
    // first (5,000 indices: ~210 ms a read at load 14, the Nodes pane's costliest read in a minute).
    grows: true,
    needs: 'desiredBalance',
  }),
  // Shutdown records an orchestrator left (domain/maintenance/shutdown.ts); a node without the module answers
  // an empty node-info, parsed as none. The Nodes pane shows them and never their read's failure.
  nodeShutdown: resource({
    request: { method: 'GET', path: '/_nodes/shutdown', querystring: {} },
    parse: parseShutdownRecords,
    every: 10,
  }),
  // Every running task, flat (parents named by parent_task_id; domain/panes/tasks.ts folds them):
  // read only while the Tasks pane is shown, with only its columns and a by-query's counters.
  tasks: resource({
    request: {
      method: 'GET',
      path: '/_tasks',
      querystring: {
        detailed: 'true',
        group_by: 'none',
        filter_path: TASKS_FILTER,
      },
    },
    parse: parseTasks,
    every: 1,
  }),
  indexTemplates: resource({
    request: { method: 'GET', path: '/_index_template', querystring: {} },
    parse: asJson,
    every: 5,
  }),
  componentTemplates: resource({
    request: { method: 'GET', path: '/_component_template', querystring: {} },
    parse: asJson,
    every: 5,
  }),
  // The Snapshots pane: the repositories, then every repository's snapshots in one request
  // (newest first; only the fields shown). A listing reads each repository's index: not every poll.
  snapshotRepositories: resource({
    request: { method: 'GET', path: '/_snapshot', querystring: { filter_path: '*.type,*.settings' } },
    parse: parseRepositories,
    every: 5,
  }),
  snapshots: resource({
    request: {
      method: 'GET',
      path: '/_snapshot/_all/_all',
      querystring: {
        verbose: 'true',
        sort: 'start_time',
        order: 'desc',
        filter_path: SNAPSHOT_FIELDS.map((f) => `snapshots.${f}`).join(','),
      },
    },
    parse: (b: unknown) => parseSnapshots(b, ''),
    every: 5,
  }),
  // What runs now: snapshots being taken (_status with no repository lists only the running ones)
  // and restores (recoveries from a snapshot); both answer {} or [] when nothing runs.
  runningSnapshots: resource({
    request: { method: 'GET', path: '/_snapshot/_status', querystring: {} },
    parse: parseSnapshotStatus,
    every: 2,
  }),
  restores: resource({
    request: { method: 'GET', path: '/_recovery', querystring: { active_only: 'true', filter_path: RECOVERY_FIELDS } },
    parse: (b: unknown) => restoreRecoveries(parseRecovery(b)),
    every: 2,
  }),
  // Every active recovery (peer, existing store, snapshot), for the Shards pane's section: the same
  // request as restores (the scenarios' recorded answers are shared), read only while the health
  // says shards initialize or relocate (domain/panes.ts whileRecovering).
  recoveries: resource({
    request: { method: 'GET', path: '/_recovery', querystring: { active_only: 'true', filter_path: RECOVERY_FIELDS } },
    parse: (b: unknown) => activeRecoveries(parseRecovery(b)),
    every: 1,
  }),
};

export type ResourceName = keyof typeof RESOURCES;
export type ResourceData<K extends ResourceName> = ReturnType<(typeof RESOURCES)[K]['parse']>;
export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];

/** The resources a pane reads (domain/panes.ts), in this registry's order. */
export function resourcesOfPane(pane: PaneId): ResourceName[] {
  const reads: readonly string[] = PANE_DECLARATIONS[pane].reads;
  return RESOURCE_NAMES.filter((name) => reads.includes(name));
}

export function healthReportIndicatorRequest(indicator: string): ReadRequest {
  return { method: 'GET', path: `/_health_report/${encodeURIComponent(indicator)}`, querystring: { verbose: 'true' } };
}
