// Node pressure (Elastic's "high CPU", "rejected requests", "circuit breaker errors" and "high JVM
// memory pressure" troubleshooting guides): thread pools (active, queue, rejected), circuit
// breakers (estimated against limit, tripped), the old generation's use, GC, and the search and
// indexing totals behind the rates. One _nodes/stats answer per poll; what changed since the last
// one (rejections, trips, collections, rates) is worked out against the previous answer. Pure.
import { compareText } from '../text/order';

type Json = Record<string, any>;

/** The pools shown: the busy ones of a data node first (write, search, get), then the master's and housekeeping's. */
export const PRESSURE_POOLS = ['write', 'search', 'get', 'management', 'refresh', 'flush', 'force_merge', 'snapshot'] as const;

export interface PoolStats {
  name: string;
  active: number;
  queue: number;
  rejected: number;
  /** Rejections since the previous answer (null on the first). */
  rejectedSince: number | null;
}

export interface BreakerStats {
  name: string;
  estimatedBytes: number;
  limitBytes: number;
  tripped: number;
  trippedSince: number | null;
}

export interface NodePressure {
  id: string;
  name: string;
  /** The node's own clock when it answered (ms). */
  timestamp: number;
  pools: PoolStats[];
  breakers: BreakerStats[];
  oldUsedBytes: number;
  oldMaxBytes: number;
  gc: { name: string; count: number; timeMs: number; countSince: number | null; timeMsSince: number | null }[];
  searchTotal: number;
  indexTotal: number;
  /** Per second over the interval since the previous answer (null on the first, or a reset counter). */
  searchPerSec: number | null;
  indexPerSec: number | null;
  /** ms since the previous answer by the node's clock (null on the first). */
  intervalMs: number | null;
  /** indices.indexing.write_load (8.6+): write threads its shards keep busy on average; null when not reported. */
  writeLoad: number | null;
}

export const NODE_PRESSURE_FILTER = [
  'nodes.*.name',
  'nodes.*.timestamp',
  ...PRESSURE_POOLS.flatMap((p) => ['active', 'queue', 'rejected'].map((f) => `nodes.*.thread_pool.${p}.${f}`)),
  'nodes.*.breakers.*.estimated_size_in_bytes',
  'nodes.*.breakers.*.limit_size_in_bytes',
  'nodes.*.breakers.*.tripped',
  'nodes.*.jvm.mem.pools.old.used_in_bytes',
  'nodes.*.jvm.mem.pools.old.max_in_bytes',
  'nodes.*.jvm.gc.collectors.*.collection_count',
  'nodes.*.jvm.gc.collectors.*.collection_time_in_millis',
  'nodes.*.indices.search.query_total',
  'nodes.*.indices.indexing.index_total',
  // 8.6+: the average number of write threads its shards kept busy (the hot-spot column; null before).
  'nodes.*.indices.indexing.write_load',
].join(',');

const n = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0)) || 0;
/** A counter's growth; null without a previous value or when it went down (the node restarted). */
const since = (now: number, before: number | undefined): number | null => (before === undefined || now < before ? null : now - before);

export function parseNodePressure(body: Json, prev?: readonly NodePressure[]): NodePressure[] {
  const nodes = (body?.nodes ?? {}) as Record<string, Json>;
  return Object.entries(nodes)
    .map(([id, s]): NodePressure => {
      const before = prev?.find((p) => p.id === id);
      const pools = (s.thread_pool ?? {}) as Record<string, Json>;
      const breakers = (s.breakers ?? {}) as Record<string, Json>;
      const collectors = (s.jvm?.gc?.collectors ?? {}) as Record<string, Json>;
      const timestamp = n(s.timestamp);
      const intervalMs = before && timestamp > before.timestamp ? timestamp - before.timestamp : null;
      const searchTotal = n(s.indices?.search?.query_total);
      const indexTotal = n(s.indices?.indexing?.index_total);
      const rate = (now: number, was: number | undefined) => {
        const d = since(now, was);
        return d === null || intervalMs === null ? null : (d * 1000) / intervalMs;
      };
      return {
        id,
        name: String(s.name ?? id),
        timestamp,
        pools: PRESSURE_POOLS.filter((p) => pools[p]).map((p) => {
          const rejected = n(pools[p].rejected);
          return {
            name: p,
            active: n(pools[p].active),
            queue: n(pools[p].queue),
            rejected,
            rejectedSince: since(rejected, before?.pools.find((x) => x.name === p)?.rejected),
          };
        }),
        breakers: Object.entries(breakers)
          .map(([name, b]) => {
            const tripped = n(b.tripped);
            return {
              name,
              estimatedBytes: n(b.estimated_size_in_bytes),
              limitBytes: n(b.limit_size_in_bytes),
              tripped,
              trippedSince: since(tripped, before?.breakers.find((x) => x.name === name)?.tripped),
            };
          })
          // The parent first: it is the one that trips for the whole heap.
          .sort((a, b) => Number(b.name === 'parent') - Number(a.name === 'parent') || compareText(a.name, b.name)),
        oldUsedBytes: n(s.jvm?.mem?.pools?.old?.used_in_bytes),
        oldMaxBytes: n(s.jvm?.mem?.pools?.old?.max_in_bytes),
        gc: Object.entries(collectors).map(([name, c]) => {
          const was = before?.gc.find((g) => g.name === name);
          const count = n(c.collection_count);
          const timeMs = n(c.collection_time_in_millis);
          return { name, count, timeMs, countSince: since(count, was?.count), timeMsSince: since(timeMs, was?.timeMs) };
        }),
        searchTotal,
        indexTotal,
        searchPerSec: rate(searchTotal, before?.searchTotal),
        indexPerSec: rate(indexTotal, before?.indexTotal),
        intervalMs,
        writeLoad: typeof s.indices?.indexing?.write_load === 'number' ? (s.indices.indexing.write_load as number) : null,
      };
    })
    .sort((a, b) => compareText(a.name, b.name));
}

/** Old generation used share (0-100), null when the node does not report the pool. */
export function oldGenPercent(p: Pick<NodePressure, 'oldUsedBytes' | 'oldMaxBytes'>): number | null {
  return p.oldMaxBytes > 0 ? (p.oldUsedBytes / p.oldMaxBytes) * 100 : null;
}

/** Rejections since the previous answer over every pool (null on the first answer). */
export function rejectionsSince(p: Pick<NodePressure, 'pools'>): number | null {
  const d = p.pools.map((x) => x.rejectedSince);
  return d.some((x) => x === null) ? null : d.reduce<number>((a, b) => a + (b ?? 0), 0);
}
