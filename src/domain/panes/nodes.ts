// The Nodes pane's rows: heap used/max, -Xms against -Xmx, GC, fielddata, RAM, load, CPU, each data
// path's disk, heap max against the machine's RAM (at most 50% of RAM, never above 32 GB) and open
// scroll contexts against search.max_open_scroll_context; the columns that fit the width; and the
// verdict and details of the selected node.
import type { BalanceSummary } from '../nodes/balance';
import { shutdownShort, type ShutdownRecord } from '../maintenance/shutdown';
import { barText, formatBytes, formatCount, formatPercent, heapSizeTone, usageTone, type Tone } from '../text/format';
import { gcTotals, heapArgsVerdict, type NodeJvmArgs, type NodeStats } from '../nodes/node-stats';
import { oldGenPercent, type NodePressure } from '../nodes/node-pressure';
import { elasticWidths, type Column, type SortKey } from '../text/table';
import type { NodeInfo, NodeSearchStats } from '../types';

export interface NodeLine extends NodeInfo {
  /** From the node's statistics (0, or null, until they are read). */
  heapUsedBytes: number;
  heapMaxBytes: number;
  ramTotalBytes: number;
  cpuPercent: number | null;
  load1m: number | null;
  openContexts: number | null;
  scrollContextLimit: number | null;
  /** _nodes/stats of this node (undefined until read, or when the node is not in it). */
  stats?: NodeStats;
  /** -Xms/-Xmx from its JVM arguments. */
  jvm?: NodeJvmArgs;
}

/** Each node of the cluster state with its open search contexts, statistics and JVM arguments (by id, else by name), and the cluster's limit. */
export function nodeLines(
  nodes: NodeInfo[],
  search: NodeSearchStats[] | undefined,
  scrollContextLimit: number | null,
  stats: NodeStats[] = [],
  jvm: NodeJvmArgs[] = [],
): NodeLine[] {
  const byName = new Map((search ?? []).map((s) => [s.name, s]));
  const pick = <T extends { id: string; name: string }>(list: T[], n: NodeInfo) =>
    list.find((x) => x.id === n.id) ?? list.find((x) => x.name === n.name);
  return nodes.map((n) => {
    const st = pick(stats, n);
    return {
      ...n,
      heapUsedBytes: st?.heapUsedBytes ?? 0,
      heapMaxBytes: st?.heapMaxBytes ?? 0,
      ramTotalBytes: st?.ramTotalBytes ?? 0,
      cpuPercent: st?.cpuPercent ?? null,
      load1m: st?.load1m ?? null,
      openContexts: byName.get(n.name)?.openContexts ?? null,
      scrollContextLimit,
      stats: st,
      jvm: pick(jvm, n),
    };
  });
}

const pct = (a: number, b: number) => (b > 0 ? (a / b) * 100 : 0);

/** The fullest data path of a node (used share), or null without fs stats. */
export function fullestPath(r: NodeLine): { path: string; usedPercent: number } | null {
  const paths = r.stats?.dataPaths ?? [];
  if (!paths.length) return null;
  return paths
    .map((p) => ({ path: p.path, usedPercent: pct(p.totalBytes - p.availableBytes, p.totalBytes) }))
    .sort((a, b) => b.usedPercent - a.usedPercent)[0];
}

const gcTime = (r: NodeLine) => (r.stats ? gcTotals(r.stats).timeMs : -1);

/** "182ms", "4.2s", "3.1m": GC time in the width of a column. */
export function formatMillis(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  if (ms < 3_600_000) return `${(ms / 60_000).toFixed(1)}m`;
  return `${(ms / 3_600_000).toFixed(1)}h`;
}

export const NODE_SORT_KEYS: SortKey<NodeLine>[] = [
  { title: 'node', value: (r) => r.name },
  { title: 'heap%', value: (r) => pct(r.heapUsedBytes, r.heapMaxBytes) },
  { title: 'gc', value: gcTime },
  { title: 'fielddata', value: (r) => r.stats?.fielddataBytes ?? -1 },
  { title: 'cpu', value: (r) => r.cpuPercent ?? -1 },
  { title: 'load', value: (r) => r.load1m ?? -1 },
  { title: 'disk', value: (r) => fullestPath(r)?.usedPercent ?? -1 },
  { title: 'scroll', value: (r) => r.openContexts ?? -1 },
  { title: 'heap', value: (r) => pct(r.heapUsedBytes, r.heapMaxBytes) },
  { title: 'used/max', value: (r) => r.heapUsedBytes ?? -1 },
  { title: 'Xms/Xmx', value: (r) => xmsXmx(r) },
  { title: 'RAM', value: (r) => r.ramTotalBytes ?? -1 },
  { title: 'max/RAM', value: (r) => pct(r.heapMaxBytes, r.ramTotalBytes) },
];

/** What the filter searches in. */
export const nodeSearchText = (r: NodeLine) => `${r.name} ${r.ip} ${r.roles}`;

const xmsXmx = (r: NodeLine) => (r.jvm?.xms || r.jvm?.xmx ? `${r.jvm?.xms?.slice(4) ?? '?'}/${r.jvm?.xmx?.slice(4) ?? '?'}` : '-');
const heapArgsTone = (r: NodeLine): Tone | undefined =>
  (({ equal: 'green', differ: 'yellow', unknown: undefined }) as const)[heapArgsVerdict(r.jvm)];

/** Every column, most important first: at a narrow width the last ones are left out (their facts are in the details). */
export const NODE_COLUMNS: Column<NodeLine>[] = [
  { title: 'node', width: null, text: (r) => `${r.master ? '*' : ' '}${r.name}`, cut: 'middle' },
  {
    title: 'heap%',
    width: 5,
    align: 'right',
    text: (r) => (r.stats ? formatPercent(pct(r.heapUsedBytes, r.heapMaxBytes)) : '-'),
    tone: (r) => usageTone(r.heapUsedBytes, r.heapMaxBytes),
  },
  {
    title: 'heap',
    width: 10,
    text: (r) => (r.stats ? Object.values(barText(pct(r.heapUsedBytes, r.heapMaxBytes), 10)).join('') : '-'),
    tone: (r) => usageTone(r.heapUsedBytes, r.heapMaxBytes),
  },
  {
    title: 'used/max',
    width: 13,
    align: 'right',
    text: (r) => (r.stats ? `${formatBytes(r.heapUsedBytes)}/${formatBytes(r.heapMaxBytes)}` : '-'),
  },
  { title: 'Xms/Xmx', width: 11, align: 'right', text: xmsXmx, tone: heapArgsTone },
  {
    title: 'gc',
    width: 13,
    align: 'right',
    text: (r) => (r.stats ? `${formatCount(gcTotals(r.stats).count)} ${formatMillis(gcTotals(r.stats).timeMs)}` : '-'),
  },
  { title: 'cpu', width: 4, align: 'right', text: (r) => (r.cpuPercent === null ? '-' : `${r.cpuPercent}%`) },
  { title: 'load', width: 5, align: 'right', text: (r) => (r.load1m === null ? '-' : r.load1m.toFixed(2)) },
  {
    title: 'disk',
    width: 5,
    align: 'right',
    text: (r) => {
      const f = fullestPath(r);
      return f ? formatPercent(f.usedPercent) : '-';
    },
    // The default low/high watermarks (85%/90%); the Disk pane shows the effective ones.
    tone: (r) => {
      const f = fullestPath(r);
      return f ? (f.usedPercent >= 90 ? 'red' : f.usedPercent >= 85 ? 'yellow' : 'green') : undefined;
    },
  },
  { title: 'fielddata', width: 9, align: 'right', text: (r) => (r.stats ? formatBytes(r.stats.fielddataBytes) : '-') },
  { title: 'RAM', width: 7, align: 'right', text: (r) => (r.stats ? formatBytes(r.ramTotalBytes) : '-') },
  {
    title: 'max/RAM',
    width: 7,
    align: 'right',
    text: (r) => (r.stats ? formatPercent(pct(r.heapMaxBytes, r.ramTotalBytes)) : '-'),
    tone: (r) => (r.stats ? heapSizeTone(r.heapMaxBytes, r.ramTotalBytes) : undefined),
  },
  {
    title: 'scroll',
    width: 9,
    align: 'right',
    text: (r) => (r.openContexts === null ? '-' : `${r.openContexts}/${r.scrollContextLimit ?? '?'}`),
    tone: (r) => (r.openContexts === null || r.scrollContextLimit === null ? undefined : usageTone(r.openContexts, r.scrollContextLimit)),
  },
];

/** The node column keeps at least this many cells. */
const NODE_NAME_MIN = 12;

/** The columns that fit `width`: the most important first, the node name always. */
export function nodeColumnsFor(width: number): Column<NodeLine>[] {
  const cols = [...NODE_COLUMNS];
  while (
    cols.length > 2 &&
    elasticWidths(
      cols.map((c) => c.width),
      width,
      0,
    )[0] < NODE_NAME_MIN
  )
    cols.pop();
  return cols;
}

/** One sentence on the selected node's heap sizing and scroll contexts, with the rule behind it. */
export function nodeVerdict(n: NodeLine): { text: string; tone: Tone }[] {
  const tone = n.stats ? heapSizeTone(n.heapMaxBytes, n.ramTotalBytes) : ('gray' as Tone);
  const heap = !n.stats
    ? 'heap and RAM: the node statistics are not read yet'
    : tone === 'red'
      ? `heap max ${formatBytes(n.heapMaxBytes)} is above 32gb: compressed pointers are off; lower -Xmx/-Xms`
      : tone === 'yellow'
        ? `heap max ${formatBytes(n.heapMaxBytes)} is over 50% of RAM ${formatBytes(n.ramTotalBytes)}: the OS needs the rest for file caches`
        : `heap max ${formatBytes(n.heapMaxBytes)} = ${formatPercent(pct(n.heapMaxBytes, n.ramTotalBytes))} of RAM (limit 50%, never above 32gb)`;
  const lines = [{ text: heap, tone }];
  const args = heapArgsVerdict(n.jvm);
  if (args === 'differ')
    lines.push({
      text: `${n.jvm!.xms} differs from ${n.jvm!.xmx}: set -Xms equal to -Xmx (the heap then never resizes under load)`,
      tone: 'yellow',
    });
  if (n.openContexts !== null && n.scrollContextLimit !== null) {
    const t = usageTone(n.openContexts, n.scrollContextLimit);
    lines.push({
      text: `open search contexts ${n.openContexts} of search.max_open_scroll_context ${n.scrollContextLimit}${t === 'green' ? '' : ': raise the limit or shorten client scroll keep-alive'}`,
      tone: t,
    });
  }
  return lines;
}

/** The selected node's statistics as lines (under the table, and in `shardeck nodes`). */
export function nodeDetails(n: NodeLine): { text: string; tone?: Tone }[] {
  const lines: { text: string; tone?: Tone }[] = [];
  const args = heapArgsVerdict(n.jvm);
  lines.push({
    text:
      `heap ${formatBytes(n.heapUsedBytes)} of ${formatBytes(n.heapMaxBytes)} · ` +
      (args === 'unknown' ? 'Xms/Xmx not reported' : `${n.jvm!.xms} ${args === 'equal' ? '=' : '≠'} ${n.jvm!.xmx}`),
    tone: args === 'differ' ? 'yellow' : undefined,
  });
  const s = n.stats;
  if (s) {
    lines.push({
      text: `gc ${s.gc.map((c) => `${c.name} ${formatCount(c.count)} (${formatMillis(c.timeMs)})`).join(', ') || 'none reported'} · fielddata ${formatBytes(s.fielddataBytes)} (${formatCount(s.fielddataEvictions)} evictions)`,
    });
    const load = [s.load1m, s.load5m, s.load15m].map((l) => (l === null ? '-' : l.toFixed(2))).join(' ');
    lines.push({
      text: `RAM ${formatBytes(s.ramUsedBytes)} used of ${formatBytes(s.ramTotalBytes)} · load ${load} · cpu ${s.cpuPercent === null ? '-' : `${s.cpuPercent}%`}`,
    });
    for (const p of s.dataPaths) {
      const used = pct(p.totalBytes - p.availableBytes, p.totalBytes);
      lines.push({
        text: `data ${formatPercent(used)} used, ${formatBytes(p.availableBytes)} free of ${formatBytes(p.totalBytes)}: ${p.path} (${p.mount})`,
        tone: used >= 90 ? 'red' : used >= 85 ? 'yellow' : undefined,
      });
    }
  }
  return lines;
}

const POOLS_ALWAYS = ['write', 'search', 'get', 'management'];
const POOL_SHORT: Record<string, string> = { management: 'mgmt', force_merge: 'merge' };

/** CPU and load of the node (the head of its pressure lines). */
export function cpuLoadText(s: NodeStats | undefined): string {
  const cpu = s?.cpuPercent === null || s?.cpuPercent === undefined ? '-' : `${s.cpuPercent}%`;
  const load = s ? [s.load1m, s.load5m, s.load15m].map((l) => (l === null ? '-' : l.toFixed(2))).join(' ') : '-';
  return `cpu ${cpu} · load ${load}`;
}

/** "1.2k": a counter in few cells. */
function short(v: number): string {
  return v >= 1_000_000
    ? `${(v / 1_000_000).toFixed(1)}m`
    : v >= 10_000
      ? `${Math.round(v / 1000)}k`
      : v >= 1000
        ? `${(v / 1000).toFixed(1)}k`
        : String(v);
}

/**
 * The selected node's pressure as lines (under the table with P, and in `shardeck nodes --pressure`):
 * thread pools active/queue/rejected with the rejections since the last poll, the breakers, the old
 * generation with GC since the last poll (CPU and load: cpuLoadText). Red: rejections or trips since the last poll,
 * old-gen above 85%; yellow: a queue, a breaker at 90% of its limit, old-gen above 75%.
 */
export function pressureLines(p: NodePressure | undefined): { text: string; tone?: Tone }[] {
  if (!p) return [{ text: 'pressure: not read yet' }];
  const pools = p.pools.filter((x) => POOLS_ALWAYS.includes(x.name) || x.active || x.queue || x.rejectedSince);
  const poolText = pools
    .map(
      (x) =>
        `${POOL_SHORT[x.name] ?? x.name} ${x.active}/${x.queue}/${short(x.rejected)}${x.rejectedSince ? ` +${short(x.rejectedSince)}` : ''}`,
    )
    .join(' · ');
  const rejectedNow = pools.some((x) => (x.rejectedSince ?? 0) > 0);
  const lines: { text: string; tone?: Tone }[] = [
    { text: `a/q/rej ${poolText}`, tone: rejectedNow ? 'red' : pools.some((x) => x.queue > 0) ? 'yellow' : undefined },
  ];
  const shown = p.breakers.filter(
    (b) => b.name === 'parent' || b.tripped > 0 || (b.limitBytes > 0 && b.estimatedBytes / b.limitBytes >= 0.5),
  );
  const breakerText = shown
    .map(
      (b) =>
        `${b.name} ${formatBytes(b.estimatedBytes)}/${formatBytes(b.limitBytes)}${b.tripped ? ` tripped ${short(b.tripped)}${b.trippedSince ? ` +${b.trippedSince}` : ''}` : ''}`,
    )
    .join(' · ');
  lines.push({
    text: `breakers ${breakerText || 'none reported'}`,
    tone: p.breakers.some((b) => (b.trippedSince ?? 0) > 0)
      ? 'red'
      : shown.some((b) => b.limitBytes > 0 && b.estimatedBytes / b.limitBytes >= 0.9)
        ? 'yellow'
        : undefined,
  });
  const old = oldGenPercent(p);
  const gc = p.gc
    .map(
      (g) => `${g.name} ${g.countSince === null ? formatCount(g.count) : `+${g.countSince}`} (${formatMillis(g.timeMsSince ?? g.timeMs)})`,
    )
    .join(' ');
  const per = p.intervalMs === null ? 'total' : `in ${formatMillis(p.intervalMs)}`;
  lines.push({
    text: `old-gen ${old === null ? '-' : `${formatPercent(old)} ${formatBytes(p.oldUsedBytes)}/${formatBytes(p.oldMaxBytes)}`} · gc ${per}: ${gc || '-'}`,
    tone: old === null ? undefined : old > 85 ? 'red' : old > 75 ? 'yellow' : undefined,
  });
  return lines;
}

/**
 * The selected node's maintenance lines: a shutdown record an orchestrator left on it, and the
 * balancer's view of it (desired balance, 8.6+; "not on this version" before). A failed read of
 * either says nothing (the records are a hint; the balance needs the manage privilege).
 */
export function nodeMaintenanceLines(
  n: Pick<NodeLine, 'id' | 'name'>,
  balance: { data?: BalanceSummary; error?: { kind: string } },
  shutdown: ShutdownRecord[] | undefined,
  now: number,
): { text: string; tone?: Tone }[] {
  const lines: { text: string; tone?: Tone }[] = [];
  for (const r of shutdown ?? []) if (r.nodeId === n.id) lines.push({ text: shutdownShort(r, now), tone: 'yellow' });
  const b = balance.data?.nodes.find((x) => x.id === n.id || x.name === n.name);
  if (b)
    lines.push({
      text: `balancer: ${b.shards} shard${b.shards === 1 ? '' : 's'}, ${b.undesired ? `${b.undesired} it wants elsewhere` : 'all where it wants them'} (shardeck balance)`,
      ...(b.undesired ? { tone: 'yellow' } : {}),
    });
  else if (balance.error?.kind === 'unsupported') lines.push({ text: 'balancer: not on this version (needs 8.6)', tone: 'gray' });
  return lines;
}
