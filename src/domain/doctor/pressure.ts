// Node pressure rules of Elastic's troubleshooting guides ("Rejected requests", "Circuit breaker
// errors", "High JVM memory pressure", "High CPU usage"), each with what it read and the guide's
// remedy. One reading of the node statistics read's pressure (cumulative counters since the node started) and,
// in the console, the session's samples (what changed while it watched). Pure.
import { formatBytes, formatPercent } from '../text/format';
import type { NodeSample } from '../nodes/node-history';
import type { NodeStats } from '../nodes/node-stats';
import { oldGenPercent, type NodePressure } from '../nodes/node-pressure';
import type { Finding, Fix, Severity } from './finding';

/** Old generation use from which the guide speaks of high JVM memory pressure; critical above the second. */
export const OLD_GEN_WARN = 85;
export const OLD_GEN_CRITICAL = 95;
/** CPU at or above this in every one of the last CPU_SAMPLES samples the console took is high CPU. */
export const CPU_HIGH = 90;
export const CPU_SAMPLES = 6;

/** The pools whose rejections the "rejected requests" guide names. */
const REJECTION_POOLS = ['write', 'search', 'get'];

/** Where the operator sees the pressure: the Nodes pane's P, and its twin with samples. */
const PRESSURE_FIX: Fix = { key: 'P', pane: 'nodes', command: 'shardeck nodes --pressure --samples 6 --interval 5' };

export interface PressureInputs {
  pressure: readonly NodePressure[];
  stats: readonly NodeStats[];
  /** Each node's configured queue size per pool (GET _nodes/thread_pool), when read. */
  queueSizes?: Record<string, Record<string, number>>;
  /** The console's samples per node (none from the command line). */
  history?: Record<string, readonly NodeSample[]>;
}

function finding(id: string, node: string, severity: Severity, text: string, evidence: string[], remedy?: string): Finding {
  return {
    id: `pressure.${id}.${node}`,
    family: 'pressure',
    severity,
    node,
    finding: text,
    evidence,
    ...(severity === 'ok' || !remedy ? {} : { remedy, fix: PRESSURE_FIX }),
  };
}

function rejections(p: NodePressure, sizes: Record<string, number> | undefined, seen: readonly NodeSample[]): Finding {
  const pools = p.pools.filter((x) => REJECTION_POOLS.includes(x.name));
  const rejected = pools.filter((x) => x.rejected > 0);
  const full = rejected.filter((x) => (sizes?.[x.name] ?? 0) > 0 && x.queue >= sizes![x.name]);
  const evidence = pools.map(
    (x) =>
      `thread_pool.${x.name}: active ${x.active}, queue ${x.queue}${sizes?.[x.name] ? ` of ${sizes[x.name]}` : ''}, rejected ${x.rejected}`,
  );
  const watched = seen.reduce((t, s) => t + (s.rejections ?? 0), 0);
  if (seen.length > 1) evidence.push(`${watched} rejected while the console watched (${seen.length} samples)`);
  if (!rejected.length)
    return finding('rejections', p.name, 'ok', `no ${REJECTION_POOLS.join('/')} requests rejected since the node started`, evidence);
  const what = rejected.map((x) => `${x.name} ${x.rejected}`).join(', ');
  return finding(
    'rejections',
    p.name,
    full.length ? 'critical' : 'warn',
    full.length
      ? `requests rejected (${what}) and the ${full.map((x) => x.name).join('/')} queue is full now: clients get 429 es_rejected_execution_exception`
      : `requests rejected since the node started (${what}); the queues have room now`,
    evidence,
    'send fewer, smaller bulk requests and back off on 429 (retry later, not at once); spread the shards being written or searched over more nodes; cancel long searches (shardeck tasks --all); do not raise thread_pool.*.queue_size: a longer queue only holds more requests in the heap',
  );
}

function breakers(p: NodePressure): Finding {
  const evidence = p.breakers.map(
    (b) => `breakers.${b.name}: estimated ${formatBytes(b.estimatedBytes)} of limit ${formatBytes(b.limitBytes)}, tripped ${b.tripped}`,
  );
  const parent = p.breakers.find((b) => b.name === 'parent');
  const tripped = p.breakers.filter((b) => b.tripped > 0);
  if (parent && parent.tripped > 0)
    return finding(
      'breaker',
      p.name,
      'critical',
      `the parent circuit breaker tripped ${parent.tripped} times: the heap was nearly full and requests failed with circuit_breaking_exception`,
      evidence,
      'lower the JVM memory pressure (see old-gen): avoid expensive searches (large size, deep or wide aggregations, wildcard/regexp queries), clear the fielddata cache (POST _cache/clear?fielddata=true), split large bulk requests; then give the node more heap (up to 50% of RAM) or add nodes',
    );
  if (tripped.length)
    return finding(
      'breaker',
      p.name,
      'warn',
      `circuit breaker tripped: ${tripped.map((b) => `${b.name} ${b.tripped} times`).join(', ')}`,
      evidence,
      'a single request asked for more memory than its breaker allows: make it smaller (fewer buckets, a smaller size, fewer fields loaded); check the breaker limits (indices.breaker.*.limit) were not lowered by mistake',
    );
  return finding('breaker', p.name, 'ok', 'no circuit breaker tripped since the node started', evidence);
}

function oldGen(p: NodePressure): Finding {
  const pct = oldGenPercent(p);
  if (pct === null) return finding('old-gen', p.name, 'unknown', 'the node does not report its old generation pool', []);
  const evidence = [`jvm.mem.pools.old: ${formatBytes(p.oldUsedBytes)} used of ${formatBytes(p.oldMaxBytes)} (${formatPercent(pct)})`];
  for (const g of p.gc) evidence.push(`gc ${g.name}: ${g.count} collections, ${g.timeMs} ms since the node started`);
  const severity: Severity = pct > OLD_GEN_CRITICAL ? 'critical' : pct > OLD_GEN_WARN ? 'warn' : 'ok';
  return finding(
    'old-gen',
    p.name,
    severity,
    severity === 'ok'
      ? `JVM memory pressure ${formatPercent(pct)} (old generation; above ${OLD_GEN_WARN}% is high)`
      : `JVM memory pressure ${formatPercent(pct)}: above ${OLD_GEN_WARN}% garbage collection slows the node and breakers trip`,
    evidence,
    'reduce the shard count (merge small indices, delete old ones), avoid expensive searches and large aggregations, prevent mapping explosions (index.mapping.total_fields.limit), spread bulk requests; if it stays high, more heap (up to 50% of RAM, below 32gb) or more nodes',
  );
}

function cpu(p: NodePressure, s: NodeStats | undefined, seen: readonly NodeSample[]): Finding {
  const now = s?.cpuPercent ?? null;
  const evidence = [`os.cpu.percent ${now === null ? '-' : `${now}%`}, load ${s?.load1m ?? '-'} ${s?.load5m ?? '-'} ${s?.load15m ?? '-'}`];
  const last = seen.slice(-CPU_SAMPLES).map((x) => x.cpuPercent);
  const remedy =
    'find what runs: hot threads (GET _nodes/hot_threads) and long tasks (shardeck tasks --all, cancel a runaway search); spread bulk and search load (more replicas or nodes); lower the request rate';
  if (last.length >= CPU_SAMPLES) {
    evidence.push(`the console's last ${CPU_SAMPLES} samples: ${last.map((c) => (c === null ? '-' : `${c}%`)).join(' ')}`);
    const high = last.every((c) => c !== null && c >= CPU_HIGH);
    return finding(
      'cpu',
      p.name,
      high ? 'warn' : 'ok',
      high
        ? `CPU at ${CPU_HIGH}% or more in each of the last ${CPU_SAMPLES} samples`
        : `CPU below ${CPU_HIGH}% in the last ${CPU_SAMPLES} samples`,
      evidence,
      remedy,
    );
  }
  if (now !== null && now >= CPU_HIGH)
    // One reading says nothing about a trend (a merge, a burst): not a fault until it lasts.
    return finding(
      'cpu',
      p.name,
      'unknown',
      `CPU ${now}% in one reading: watch whether it lasts (Nodes pane P, or shardeck nodes --pressure --samples 6)`,
      evidence,
      remedy,
    );
  return finding('cpu', p.name, 'ok', `CPU ${now === null ? 'not reported' : `${now}%`}`, evidence);
}

export function pressureFindings(i: PressureInputs): Finding[] {
  return i.pressure.flatMap((p) => {
    const s = i.stats.find((x) => x.id === p.id) ?? i.stats.find((x) => x.name === p.name);
    const seen = i.history?.[p.name] ?? [];
    return [rejections(p, i.queueSizes?.[p.name], seen), breakers(p), oldGen(p), cpu(p, s, seen)];
  });
}

export const THREAD_POOL_QUEUE_FILTER = ['nodes.*.name', ...REJECTION_POOLS.map((p) => `nodes.*.thread_pool.${p}.queue_size`)].join(',');

/** Each node's queue size per pool from GET _nodes/thread_pool (by node name). */
export function parseQueueSizes(body: any): Record<string, Record<string, number>> {
  const nodes = (body?.nodes ?? {}) as Record<string, any>;
  return Object.fromEntries(
    Object.values(nodes).map((n) => [
      String(n.name ?? ''),
      Object.fromEntries(
        Object.entries((n.thread_pool ?? {}) as Record<string, any>).map(([pool, v]) => [pool, Number(v?.queue_size) || 0]),
      ),
    ]),
  );
}
