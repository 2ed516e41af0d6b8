// Two reads a few seconds apart (issue 41): what changes while the doctor looks. The elected master
// and the election term, each node's counters (CPU, heap, GC, searches and their time, indexing and
// its failures, the write and search queues, file descriptors) and the running tasks, read once at
// the start of a run and once at its end; the rules that judge a rate (GC overhead, search latency,
// indexing failures, elections, a task whose progress stopped) compare the two. Pure parsing and
// arithmetic: cluster/nodes.ts doctorSample() sends the reads.
import { parseTasks, type ClusterTask } from '../parse';
import { compareText } from '../text/order';

type Json = Record<string, any>;

export interface NodeCounters {
  id: string;
  name: string;
  host: string | null;
  /** Full role names (master, data, data_hot, data_frozen, ingest...). */
  roles: string[];
  /** The node's clock when it answered (ms). */
  timestamp: number;
  cpuPercent: number | null;
  heapPercent: number | null;
  /** The old (or "G1 Concurrent"/"G1 Old") collectors' counts and time, and every collector's time. */
  oldGcCount: number;
  oldGcMs: number;
  gcMs: number;
  queryTotal: number;
  queryTimeMs: number;
  indexTotal: number;
  indexFailed: number;
  /** Of indexFailed, version conflicts (8.13+; null before). */
  indexFailedVersionConflict: number | null;
  /** thread_pool.<pool>.queue now (write, search). */
  queues: Record<string, number>;
  maxFileDescriptors: number | null;
  openFileDescriptors: number | null;
}

export interface DoctorSample {
  /** When the reads were sent (the doctor's clock, ms). */
  t: number;
  /** The elected master's node id, null when the cluster state names none. */
  masterId: string | null;
  /** The election term (metadata.cluster_coordination.term): each election adds one. */
  term: number | null;
  /** The master-eligible node ids in the last committed voting configuration. */
  votingIds: string[];
  /** The file-based settings' last apply (metadata.reserved_state.file_settings), when the node has them (8.4+). */
  fileSettings: { version: number; errors: { kind: string; version: number; errors: string[] } | null } | null;
  nodes: NodeCounters[];
  tasks: ClusterTask[];
}

export const SAMPLE_POOLS = ['write', 'search'] as const;

export const SAMPLE_STATS_FILTER = [
  'nodes.*.name',
  'nodes.*.host',
  'nodes.*.roles',
  'nodes.*.timestamp',
  'nodes.*.os.cpu.percent',
  'nodes.*.jvm.mem.heap_used_percent',
  'nodes.*.jvm.gc.collectors.*.collection_count',
  'nodes.*.jvm.gc.collectors.*.collection_time_in_millis',
  'nodes.*.process.max_file_descriptors',
  'nodes.*.process.open_file_descriptors',
  'nodes.*.indices.search.query_total',
  'nodes.*.indices.search.query_time_in_millis',
  'nodes.*.indices.indexing.index_total',
  'nodes.*.indices.indexing.index_failed',
  'nodes.*.indices.indexing.index_failed_due_to_version_conflict',
  ...SAMPLE_POOLS.map((p) => `nodes.*.thread_pool.${p}.queue`),
].join(',');

export const SAMPLE_STATE_FILTER = [
  'master_node',
  'metadata.cluster_coordination.term',
  'metadata.cluster_coordination.last_committed_config',
  'metadata.reserved_state.file_settings',
].join(',');

const n = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0)) || 0;
const nOrNull = (v: unknown): number | null =>
  v === undefined || v === null || v === '' || !Number.isFinite(Number(v)) ? null : Number(v);

/** The collectors of the old generation: "old" (parallel, CMS as named by ES), G1's "G1 Old Generation" / "G1 Concurrent GC". */
export function isOldCollector(name: string): boolean {
  return /old|concurrent/i.test(name);
}

export function parseSampleStats(body: Json): NodeCounters[] {
  const nodes = (body?.nodes ?? {}) as Record<string, Json>;
  return Object.entries(nodes)
    .map(([id, s]): NodeCounters => {
      const collectors = Object.entries((s.jvm?.gc?.collectors ?? {}) as Record<string, Json>);
      const old = collectors.filter(([name]) => isOldCollector(name));
      const fdMax = nOrNull(s.process?.max_file_descriptors);
      return {
        id,
        name: String(s.name ?? id),
        host: s.host ? String(s.host) : null,
        roles: Array.isArray(s.roles) ? s.roles.map(String).sort() : [],
        timestamp: n(s.timestamp),
        cpuPercent: nOrNull(s.os?.cpu?.percent),
        heapPercent: nOrNull(s.jvm?.mem?.heap_used_percent),
        oldGcCount: old.reduce((t, [, c]) => t + n(c.collection_count), 0),
        oldGcMs: old.reduce((t, [, c]) => t + n(c.collection_time_in_millis), 0),
        gcMs: collectors.reduce((t, [, c]) => t + n(c.collection_time_in_millis), 0),
        queryTotal: n(s.indices?.search?.query_total),
        queryTimeMs: n(s.indices?.search?.query_time_in_millis),
        indexTotal: n(s.indices?.indexing?.index_total),
        indexFailed: n(s.indices?.indexing?.index_failed),
        indexFailedVersionConflict: nOrNull(s.indices?.indexing?.index_failed_due_to_version_conflict),
        queues: Object.fromEntries(SAMPLE_POOLS.filter((p) => s.thread_pool?.[p]).map((p) => [p, n(s.thread_pool[p].queue)])),
        // -1: the platform does not say (Windows).
        maxFileDescriptors: fdMax !== null && fdMax >= 0 ? fdMax : null,
        openFileDescriptors: nOrNull(s.process?.open_file_descriptors),
      };
    })
    .sort((a, b) => compareText(a.name, b.name));
}

/** GET _cluster/state/master_node,metadata filtered to SAMPLE_STATE_FILTER. */
export function parseSampleState(body: Json): Pick<DoctorSample, 'masterId' | 'term' | 'votingIds' | 'fileSettings'> {
  const coord = body?.metadata?.cluster_coordination ?? {};
  const fs = body?.metadata?.reserved_state?.file_settings;
  const errors = fs?.errors;
  return {
    masterId: typeof body?.master_node === 'string' && body.master_node ? body.master_node : null,
    term: nOrNull(coord.term),
    // Placeholders ("{bootstrap-placeholder}-...") stand for nodes not known yet: not a node that left.
    votingIds: (Array.isArray(coord.last_committed_config) ? coord.last_committed_config.map(String) : []).filter(
      (id: string) => !id.startsWith('{bootstrap-placeholder}'),
    ),
    fileSettings:
      fs && typeof fs === 'object'
        ? {
            version: n(fs.version),
            errors:
              errors && typeof errors === 'object'
                ? {
                    kind: String(errors.error_kind ?? ''),
                    version: n(errors.version),
                    errors: Array.isArray(errors.errors) ? errors.errors.map(String) : [],
                  }
                : null,
          }
        : null,
  };
}

export function doctorSample(t: number, stats: Json, state: Json, tasks: Json): DoctorSample {
  return { t, ...parseSampleState(state), nodes: parseSampleStats(stats), tasks: parseTasks(tasks) };
}

/** How a counter grew between two readings of one node; null when it went down (a restart) or the node is new. */
export interface NodeDelta {
  node: string;
  /** ms between the readings by the node's clock (the doctor's when the node's did not move). */
  ms: number;
  oldGcCount: number | null;
  oldGcMs: number | null;
  gcMs: number | null;
  queries: number | null;
  queryMs: number | null;
  indexed: number | null;
  indexFailed: number | null;
  /** Of indexFailed, version conflicts (null: the node does not count them apart). */
  versionConflicts: number | null;
}

const grew = (now: number, was: number): number | null => (now >= was ? now - was : null);

/** Each node's growth between the two samples (by id; nodes in only one are left out). */
export function sampleDeltas(first: DoctorSample, second: DoctorSample): NodeDelta[] {
  return second.nodes.flatMap((b) => {
    const a = first.nodes.find((x) => x.id === b.id);
    if (!a) return [];
    const ms = b.timestamp > a.timestamp ? b.timestamp - a.timestamp : Math.max(0, second.t - first.t);
    return [
      {
        node: b.name,
        ms,
        oldGcCount: grew(b.oldGcCount, a.oldGcCount),
        oldGcMs: grew(b.oldGcMs, a.oldGcMs),
        gcMs: grew(b.gcMs, a.gcMs),
        queries: grew(b.queryTotal, a.queryTotal),
        queryMs: grew(b.queryTimeMs, a.queryTimeMs),
        indexed: grew(b.indexTotal, a.indexTotal),
        indexFailed: grew(b.indexFailed, a.indexFailed),
        versionConflicts:
          b.indexFailedVersionConflict !== null && a.indexFailedVersionConflict !== null
            ? grew(b.indexFailedVersionConflict, a.indexFailedVersionConflict)
            : null,
      },
    ];
  });
}

/** "3.0 s" / "2 min" for the window between two reads. */
export function windowText(ms: number): string {
  return ms < 90_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`;
}
