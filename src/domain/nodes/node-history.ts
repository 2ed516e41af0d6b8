// The session's history per node: one sample each time the node statistics read answers (only while
// the Nodes pane is shown, or each sample of `shardeck nodes --pressure --samples N`), kept in a
// bounded series per node, and drawn as sparklines so a trend reads at a glance. Pure.
import { formatPercent } from '../text/format';
import type { NodeStats } from './node-stats';
import { oldGenPercent, rejectionsSince, type NodePressure } from './node-pressure';

export interface NodeSample {
  /** ms since the epoch (the console's clock). */
  t: number;
  heapPercent: number | null;
  oldGenPercent: number | null;
  cpuPercent: number | null;
  /** The fullest data path's used share. */
  diskPercent: number | null;
  /** Rejections over every pool since the previous sample. */
  rejections: number | null;
  searchPerSec: number | null;
  indexPerSec: number | null;
}

/** Samples kept per node: at the 5 s poll, 30 minutes (8 numbers each: a few hundred kB for 20 nodes). */
export const MAX_NODE_SAMPLES = 360;

const pct = (a: number, b: number) => (b > 0 ? (a / b) * 100 : null);

/** One sample per node of the pressure answer, with heap, CPU and disk from the node statistics read beside it. */
export function nodeSamples(
  pressure: readonly NodePressure[],
  stats: readonly NodeStats[] | undefined,
  t: number,
): Record<string, NodeSample> {
  return Object.fromEntries(
    pressure.map((p) => {
      const s = stats?.find((x) => x.id === p.id) ?? stats?.find((x) => x.name === p.name);
      const disk = s?.dataPaths.length
        ? Math.max(...s.dataPaths.map((d) => pct(d.totalBytes - d.availableBytes, d.totalBytes) ?? 0))
        : null;
      return [
        p.name,
        {
          t,
          heapPercent: s ? pct(s.heapUsedBytes, s.heapMaxBytes) : null,
          oldGenPercent: oldGenPercent(p),
          cpuPercent: s?.cpuPercent ?? null,
          diskPercent: disk,
          rejections: rejectionsSince(p),
          searchPerSec: p.searchPerSec,
          indexPerSec: p.indexPerSec,
        },
      ];
    }),
  );
}

/** The history with these samples added, each node's series cut to the newest `max`. */
export function addSamples(
  history: Readonly<Record<string, readonly NodeSample[]>> | undefined,
  samples: Record<string, NodeSample>,
  max = MAX_NODE_SAMPLES,
): Record<string, NodeSample[]> {
  const next: Record<string, NodeSample[]> = { ...(history as Record<string, NodeSample[]>) };
  for (const [node, s] of Object.entries(samples)) {
    const prev = next[node] ?? [];
    next[node] = [...prev.slice(Math.max(0, prev.length - max + 1)), s];
  }
  return next;
}

const BLOCKS = '▁▂▃▄▅▆▇█';

/**
 * The newest `width` values as one line of block characters, from 0 (lowest block) to `top`
 * (default: the largest value shown, so a rate's shape shows at any size); a missing value is a
 * space. Left-padded with spaces when there are fewer values than cells.
 */
export function sparkline(values: readonly (number | null)[], width: number, top?: number): string {
  const shown = values.slice(Math.max(0, values.length - Math.max(0, width)));
  const max = top ?? Math.max(0, ...shown.map((v) => v ?? 0));
  const cells = shown.map((v) => {
    if (v === null || !Number.isFinite(v)) return ' ';
    if (max <= 0) return BLOCKS[0];
    const i = Math.round((Math.max(0, Math.min(v, max)) / max) * (BLOCKS.length - 1));
    return BLOCKS[i];
  });
  return ' '.repeat(Math.max(0, width - cells.length)) + cells.join('');
}

export interface Series {
  key: keyof Omit<NodeSample, 't'>;
  label: string;
  /** Percentages are drawn against 100; counts and rates against their own largest value. */
  percent: boolean;
}

export const NODE_SERIES: Series[] = [
  { key: 'heapPercent', label: 'heap', percent: true },
  { key: 'oldGenPercent', label: 'old', percent: true },
  { key: 'cpuPercent', label: 'cpu', percent: true },
  { key: 'diskPercent', label: 'disk', percent: true },
  { key: 'rejections', label: 'rej', percent: false },
  { key: 'searchPerSec', label: 'srch/s', percent: false },
  { key: 'indexPerSec', label: 'idx/s', percent: false },
];

function lastValue(s: Series, v: number | null): string {
  if (v === null) return '-';
  if (s.percent) return formatPercent(v);
  return v >= 1000 ? `${(v / 1000).toFixed(1)}k` : v >= 10 || Number.isInteger(v) ? String(Math.round(v)) : v.toFixed(1);
}

/**
 * Sparklines of one node's samples, two series a line in `width` columns: "heap ▁▂▅▇ 72%".
 * The value after each line is the newest sample.
 */
export function sparkLines(samples: readonly NodeSample[], width: number): string[] {
  const half = Math.floor((width - 2) / 2);
  const labelW = 6;
  const valueW = 5;
  const sparkW = Math.max(4, half - labelW - valueW - 2);
  const cell = (s: Series) => {
    const values = samples.map((x) => x[s.key]);
    const last = lastValue(s, values.length ? values[values.length - 1] : null);
    return `${s.label.padEnd(labelW)} ${sparkline(values, sparkW, s.percent ? 100 : undefined)} ${last.padStart(valueW)}`;
  };
  const lines: string[] = [];
  for (let i = 0; i < NODE_SERIES.length; i += 2) {
    const pair = NODE_SERIES.slice(i, i + 2).map(cell);
    lines.push(pair.join('  '));
  }
  return lines;
}
