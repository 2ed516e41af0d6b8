// Pressure before it bites (issue 41): a write or search queue above half its size, a circuit
// breaker above 80% of its limit, GC overhead, slow searches and indexing failures (rates between
// the doctor's two reads), a data node whose CPU is far above its peers', and a cluster whose
// desired balance (8.6+) says many copies are not where they should be. Pure.
import { formatBytes, formatCount, formatPercent } from '../text/format';
import type { BalanceSummary } from '../nodes/balance';
import type { NodeSample } from '../nodes/node-history';
import type { NodePressure } from '../nodes/node-pressure';
import type { Finding } from './finding';
import { sampleDeltas, windowText, type DoctorSample } from './sample';

const PRESSURE_FIX = { key: 'P', pane: 'nodes', command: 'shardeck nodes --pressure --samples 6 --interval 5' };

/** A write or search queue from this share of its size is filling (rejections start when it is full). */
export const QUEUE_WARN_SHARE = 0.5;
/** A breaker's estimate from this share of its limit is close to tripping. */
export const BREAKER_WARN_SHARE = 0.8;
/** Share of the window spent in GC: Elasticsearch's own GC-overhead log says INFO from 25%, WARN from 50%. */
export const GC_WARN_SHARE = 0.25;
export const GC_CRITICAL_SHARE = 0.5;
/** Average time of a shard query in the window from which searches are slow. */
export const SLOW_QUERY_MS = 1000;
/** A data node's CPU at least this many times its peers' mean, and at least LOADED_CPU_MIN, is loaded. */
export const LOADED_CPU_FACTOR = 2;
export const LOADED_CPU_MIN = 50;
export const LOADED_CPU_SAMPLES = 6;
/** Elasticsearch's own threshold (cluster.routing.allocation.desired_balance.undesired_allocations.threshold): it logs a warning above it. */
export const UNDESIRED_WARN_RATIO = 0.1;

const QUEUE_POOLS = ['write', 'search'];

/** pressure.queue: write and search queues against their sizes, in the first read (pressure) and the second (sample). */
export function queueFindings(
  pressure: readonly NodePressure[],
  sizes: Record<string, Record<string, number>> | undefined,
  second: DoctorSample | undefined,
): Finding[] {
  return pressure.map((p) => {
    const later = second?.nodes.find((n) => n.id === p.id);
    const rows = QUEUE_POOLS.flatMap((pool) => {
      const size = sizes?.[p.name]?.[pool] ?? 0;
      const now = p.pools.find((x) => x.name === pool)?.queue ?? 0;
      const then = later?.queues[pool];
      const most = Math.max(now, then ?? 0);
      return size > 0 ? [{ pool, size, now, then, most }] : [];
    });
    const evidence = rows.map((r) => `thread_pool.${r.pool}: queue ${r.now}${r.then !== undefined ? ` then ${r.then}` : ''} of ${r.size}`);
    const filling = rows.filter((r) => r.most >= r.size * QUEUE_WARN_SHARE);
    if (!rows.length)
      return {
        id: `pressure.queue.${p.name}`,
        family: 'pressure',
        severity: 'unknown',
        node: p.name,
        finding: 'queue sizes not read',
        evidence,
      };
    if (!filling.length)
      return {
        id: `pressure.queue.${p.name}`,
        family: 'pressure',
        severity: 'ok',
        node: p.name,
        finding: `write and search queues below ${formatPercent(QUEUE_WARN_SHARE * 100)} of their size`,
        evidence,
      };
    return {
      id: `pressure.queue.${p.name}`,
      family: 'pressure',
      severity: 'warn',
      node: p.name,
      finding: `the ${filling.map((r) => `${r.pool} queue holds ${r.most} of ${r.size}`).join(' and the ')}: requests are rejected (429) once it is full`,
      evidence,
      remedy:
        'fewer concurrent requests from the clients (smaller bulks, fewer parallel searches), and find what makes the node slow (shardeck hot-threads NODE, shardeck tasks --all); a longer queue only holds more in the heap',
      fix: PRESSURE_FIX,
    };
  });
}

/** pressure.breaker-near: breakers whose estimate is close to their limit, the parent first. */
export function breakerNearFindings(pressure: readonly NodePressure[]): Finding[] {
  return pressure.map((p) => {
    const near = p.breakers.filter((b) => b.limitBytes > 0 && b.estimatedBytes >= b.limitBytes * BREAKER_WARN_SHARE);
    const evidence = p.breakers
      .filter((b) => b.limitBytes > 0)
      .map(
        (b) =>
          `breakers.${b.name}: ${formatBytes(b.estimatedBytes)} of ${formatBytes(b.limitBytes)} (${formatPercent((b.estimatedBytes / b.limitBytes) * 100)})`,
      );
    if (!near.length)
      return {
        id: `pressure.breaker-near.${p.name}`,
        family: 'pressure',
        severity: 'ok',
        node: p.name,
        finding: `every circuit breaker below ${formatPercent(BREAKER_WARN_SHARE * 100)} of its limit`,
        evidence,
      };
    return {
      id: `pressure.breaker-near.${p.name}`,
      family: 'pressure',
      severity: 'warn',
      node: p.name,
      finding: `circuit breaker close to its limit: ${near.map((b) => `${b.name} ${formatPercent((b.estimatedBytes / b.limitBytes) * 100)}`).join(', ')}: the next large request trips it`,
      evidence,
      remedy: near.some((b) => b.name === 'parent')
        ? 'the parent breaker counts the whole heap: lower the memory pressure (expensive searches and aggregations, large bulks, fielddata: POST _cache/clear?fielddata=true), then more heap or nodes'
        : 'what the breaker counts is large: smaller requests (fewer buckets, smaller bulks), fielddata off text fields',
      fix: PRESSURE_FIX,
    };
  });
}

/** pressure.gc: the share of the window spent collecting, and old collections, between the two reads. */
export function gcFindings(first: DoctorSample | undefined, second: DoctorSample | undefined): Finding[] {
  if (!first || !second) return [];
  return sampleDeltas(first, second).map((d) => {
    const evidence = [
      `between two reads ${windowText(d.ms)} apart: ${d.gcMs ?? '-'} ms in GC, ${d.oldGcCount ?? '-'} old collection(s) (${d.oldGcMs ?? '-'} ms)`,
    ];
    if (d.gcMs === null || d.ms <= 0)
      return {
        id: `pressure.gc.${d.node}`,
        family: 'pressure',
        severity: 'unknown',
        node: d.node,
        finding: 'the node restarted between the reads',
        evidence,
      };
    const share = d.gcMs / d.ms;
    const perMin = d.oldGcCount !== null ? (d.oldGcCount * 60_000) / d.ms : null;
    if (perMin !== null) evidence.push(`old collections: ${perMin.toFixed(1)} a minute at this rate`);
    const severity = share >= GC_CRITICAL_SHARE ? 'critical' : share >= GC_WARN_SHARE ? 'warn' : 'ok';
    return {
      id: `pressure.gc.${d.node}`,
      family: 'pressure',
      severity,
      node: d.node,
      finding:
        severity === 'ok'
          ? `GC took ${formatPercent(share * 100)} of the last ${windowText(d.ms)}`
          : `GC took ${formatPercent(share * 100)} of the last ${windowText(d.ms)}: the node does little else, requests stall and time out`,
      evidence,
      ...(severity === 'ok'
        ? {}
        : {
            remedy:
              'the heap is too full (see pressure.old-gen): fewer shards, smaller requests and aggregations, fielddata cleared; then more heap (up to 50% of RAM, below 32gb) or more nodes',
            fix: PRESSURE_FIX,
          }),
    };
  });
}

/** pressure.search-latency: the average shard query time between the two reads (the lifetime average as evidence). */
export function searchLatencyFindings(first: DoctorSample | undefined, second: DoctorSample | undefined): Finding[] {
  if (!first || !second) return [];
  return sampleDeltas(first, second).map((d) => {
    const n = second.nodes.find((x) => x.name === d.node)!;
    const lifetime = n.queryTotal > 0 ? n.queryTimeMs / n.queryTotal : null;
    const evidence = [
      `${d.queries ?? '-'} shard queries in ${windowText(d.ms)} (${d.queryMs ?? '-'} ms)`,
      `since the node started: ${formatCount(n.queryTotal)} shard queries, ${lifetime === null ? '-' : `${lifetime.toFixed(1)} ms`} on average`,
    ];
    if (!d.queries || d.queryMs === null)
      return {
        id: `pressure.search-latency.${d.node}`,
        family: 'pressure',
        severity: 'ok',
        node: d.node,
        finding: `no search in the last ${windowText(d.ms)} to time`,
        evidence,
      };
    const avg = d.queryMs / d.queries;
    const slow = avg >= SLOW_QUERY_MS;
    return {
      id: `pressure.search-latency.${d.node}`,
      family: 'pressure',
      severity: slow ? 'warn' : 'ok',
      node: d.node,
      finding: `shard queries took ${avg.toFixed(0)} ms on average in the last ${windowText(d.ms)}${slow ? `: searches are slow (${SLOW_QUERY_MS} ms or more)` : ''}`,
      evidence,
      ...(slow
        ? {
            remedy:
              'find the slow searches (shardeck tasks --all, the search slow log index.search.slowlog.threshold.query.warn) and what the node is busy with (shardeck hot-threads NODE); heavy aggregations, leading wildcards and large size cost most',
            fix: PRESSURE_FIX,
          }
        : {}),
    };
  });
}

/**
 * pressure.index-failures: operations that failed in the engine between the two reads. Seen on 8.19:
 * index_failed counts version conflicts (a create of an id that exists, an if_seq_no that no longer
 * matches) and other engine failures; a document refused while parsed (a mapping conflict, the
 * field limit) is not counted there, only in the client's bulk response.
 */
export function indexFailureFindings(first: DoctorSample | undefined, second: DoctorSample | undefined): Finding[] {
  if (!first || !second) return [];
  return sampleDeltas(first, second).map((d) => {
    const n = second.nodes.find((x) => x.name === d.node)!;
    const evidence = [
      `${d.indexFailed ?? '-'} failed of ${d.indexed ?? '-'} indexed in ${windowText(d.ms)}${d.versionConflicts !== null && d.indexFailed ? ` (${d.versionConflicts} of them version conflicts)` : ''}`,
      `since the node started: ${formatCount(n.indexFailed)} failed of ${formatCount(n.indexTotal)}`,
    ];
    if (!d.indexFailed)
      return {
        id: `pressure.index-failures.${d.node}`,
        family: 'pressure',
        severity: 'ok',
        node: d.node,
        finding: `no indexing failure in the last ${windowText(d.ms)}`,
        evidence,
      };
    return {
      id: `pressure.index-failures.${d.node}`,
      family: 'pressure',
      severity: 'warn',
      node: d.node,
      finding: `${formatCount(d.indexFailed)} document${d.indexFailed === 1 ? '' : 's'} failed to index in the last ${windowText(d.ms)} (${((d.indexFailed * 1000) / Math.max(d.ms, 1)).toFixed(1)} a second)`,
      evidence,
      remedy:
        "the client's bulk responses say why each failed: version_conflict_engine_exception (a create of an id that exists, a stale if_seq_no: the client's retries or two writers of one document) or an engine failure (the node's log); documents refused while parsed (a mapping conflict, shardeck field-limits) are not counted here",
    };
  });
}

/** hotspots.cpu: a data node whose CPU is far above its peers' (the console's samples, or the two reads). */
export function loadedDataNodeFinding(
  first: DoctorSample | undefined,
  second: DoctorSample | undefined,
  history?: Record<string, readonly NodeSample[]>,
): Finding {
  const data = (second?.nodes ?? []).filter((n) => n.roles.some((r) => r === 'data' || r.startsWith('data_')));
  if (data.length < 2)
    return {
      id: 'hotspots.cpu',
      family: 'hotspots',
      severity: 'ok',
      finding: `${data.length} data node: no peers to compare`,
      evidence: [],
    };
  const cpuOf = (name: string, id: string): { cpu: number | null; from: string } => {
    const seen = (history?.[name] ?? [])
      .slice(-LOADED_CPU_SAMPLES)
      .map((s) => s.cpuPercent)
      .filter((c): c is number => c !== null);
    if (seen.length >= LOADED_CPU_SAMPLES)
      return { cpu: seen.reduce((a, b) => a + b, 0) / seen.length, from: `the console's last ${seen.length} samples` };
    const both = [first?.nodes.find((x) => x.id === id)?.cpuPercent, second?.nodes.find((x) => x.id === id)?.cpuPercent].filter(
      (c): c is number => typeof c === 'number',
    );
    return { cpu: both.length ? both.reduce((a, b) => a + b, 0) / both.length : null, from: `${both.length} read(s)` };
  };
  const cpus = data.map((n) => ({ name: n.name, ...cpuOf(n.name, n.id) }));
  const evidence = cpus.map((c) => `${c.name}: CPU ${c.cpu === null ? '-' : formatPercent(c.cpu)} (${c.from})`);
  const loaded = cpus.filter((c) => {
    const peers = cpus.filter((o) => o.name !== c.name && o.cpu !== null).map((o) => o.cpu!);
    if (c.cpu === null || !peers.length) return false;
    const mean = peers.reduce((a, b) => a + b, 0) / peers.length;
    return c.cpu >= LOADED_CPU_MIN && c.cpu >= mean * LOADED_CPU_FACTOR;
  });
  if (!loaded.length)
    return { id: 'hotspots.cpu', family: 'hotspots', severity: 'ok', finding: 'no data node far above its peers in CPU', evidence };
  return {
    id: 'hotspots.cpu',
    family: 'hotspots',
    severity: 'warn',
    finding: `${loaded.map((c) => `${c.name} (${formatPercent(c.cpu!)})`).join(', ')}: CPU ${LOADED_CPU_FACTOR}x or more its peers': it holds the busiest shards or serves most requests`,
    evidence,
    remedy:
      'its hot threads say what burns it (shardeck hot-threads NODE); spread the busiest indices (more shards or replicas over the nodes, index.routing.allocation.total_shards_per_node), and send clients to every node, not one',
    fix: { command: `shardeck hot-threads ${loaded[0].name}` },
  };
}

/** The desired balance as the doctor read it, or why not (before 8.6, a missing privilege). */
export type BalanceView = { summary: BalanceSummary } | { why: string };

/** balance.undesired: copies the desired balance wants elsewhere. */
export function balanceFinding(view: BalanceView | undefined): Finding[] {
  if (!view) return [];
  if ('why' in view)
    return [{ id: 'balance.undesired', family: 'balance', severity: 'unknown', finding: `balance not judged: ${view.why}`, evidence: [] }];
  const s = view.summary.stats;
  const ratio = s.allocations > 0 ? s.undesired / s.allocations : 0;
  const evidence = [
    `_internal/desired_balance: ${formatCount(s.undesired)} of ${formatCount(s.allocations)} copies undesired (${formatPercent(ratio * 100, 1)}), ${formatCount(s.unassigned)} it could not place${s.computing ? ', computing now' : ''}`,
    ...view.summary.nodes
      .filter((n) => n.undesired > 0)
      .map((n) => `${n.name}: ${formatCount(n.undesired)} of ${formatCount(n.shards)} copies undesired`),
  ];
  if (ratio <= UNDESIRED_WARN_RATIO)
    return [
      {
        id: 'balance.undesired',
        family: 'balance',
        severity: 'ok',
        finding: s.undesired
          ? `${formatCount(s.undesired)} copies still to move (${formatPercent(ratio * 100, 1)}): balancing`
          : 'every copy where the balancer wants it',
        evidence,
      },
    ];
  return [
    {
      id: 'balance.undesired',
      family: 'balance',
      severity: 'warn',
      finding: `the cluster is unbalanced: ${formatPercent(ratio * 100, 1)} of the copies are not where the balancer wants them (above ${formatPercent(UNDESIRED_WARN_RATIO * 100)})`,
      evidence,
      remedy:
        'shardeck balance says which copies and what keeps them (a disk watermark, an allocation filter, cluster.routing.rebalance.enable, throttling); lift what blocks them',
      fix: { command: 'shardeck balance' },
    },
  ];
}

export interface LoadInputs {
  pressure: readonly NodePressure[];
  queueSizes?: Record<string, Record<string, number>>;
  first?: DoctorSample;
  second?: DoctorSample;
  history?: Record<string, readonly NodeSample[]>;
  balance?: BalanceView;
}

export function loadFindings(i: LoadInputs): Finding[] {
  return [
    ...queueFindings(i.pressure, i.queueSizes, i.second),
    ...breakerNearFindings(i.pressure),
    ...gcFindings(i.first, i.second),
    ...searchLatencyFindings(i.first, i.second),
    ...indexFailureFindings(i.first, i.second),
    loadedDataNodeFinding(i.first, i.second, i.history),
    ...balanceFinding(i.balance),
  ];
}
