// Disk forecast: at the growth seen (samples the console took while it ran, or the free space the
// node's log printed with each watermark warning), when each node reaches the low, high and flood
// stage watermarks. A least-squares line through free bytes over time. Pure.
import { parseByteSize, requiredFreeBytes } from '../nodes/disk';
import type { Watermarks } from '../types';

export interface DiskSample {
  /** ms since the epoch. */
  t: number;
  availBytes: number;
  totalBytes: number;
}

export type StageEta = {
  stage: 'low' | 'high' | 'flood';
  /** ms from `now`; 0 = already past it; null = not at this growth. */ inMs: number | null;
};

export interface DiskForecast {
  node: string;
  source: 'console' | 'log';
  samples: number;
  spanMs: number;
  /** Bytes written per hour (positive: the disk fills; negative: it empties). */
  growthPerHour: number;
  etas: StageEta[];
}

/** Fewer than this, or over a shorter span, says nothing about a trend. */
export const MIN_SAMPLES = 3;
export const MIN_SPAN_MS = 60_000;

/** Slope of free bytes over time (bytes per ms), least squares; null when the samples cannot say. */
export function freeSlope(samples: readonly DiskSample[]): number | null {
  if (samples.length < MIN_SAMPLES) return null;
  const t0 = samples[0].t;
  const span = samples[samples.length - 1].t - t0;
  if (span < MIN_SPAN_MS) return null;
  const n = samples.length;
  const mx = samples.reduce((s, p) => s + (p.t - t0), 0) / n;
  const my = samples.reduce((s, p) => s + p.availBytes, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of samples) {
    num += (p.t - t0 - mx) * (p.availBytes - my);
    den += (p.t - t0 - mx) ** 2;
  }
  return den === 0 ? null : num / den;
}

/** When each watermark is reached from the last sample at the fitted growth; null when the series is too short. */
export function forecastDisk(
  node: string,
  samples: readonly DiskSample[],
  w: Watermarks,
  now: number,
  source: DiskForecast['source'],
): DiskForecast | null {
  const sorted = [...samples].sort((a, b) => a.t - b.t);
  const slope = freeSlope(sorted);
  if (slope === null) return null;
  const last = sorted[sorted.length - 1];
  const etas: StageEta[] = (['low', 'high', 'flood'] as const).map((stage) => {
    const need = requiredFreeBytes(w[stage], last.totalBytes);
    if (last.availBytes < need) return { stage, inMs: 0 };
    if (slope >= 0) return { stage, inMs: null };
    // From the last sample at the fitted rate, counted from now.
    const at = last.t + (last.availBytes - need) / -slope;
    return { stage, inMs: Math.max(0, at - now) };
  });
  return { node, source, samples: sorted.length, spanMs: last.t - sorted[0].t, growthPerHour: -slope * 3_600_000, etas };
}

/**
 * Free space per node from the log's watermark warnings, e.g.
 * "high disk watermark [90%] exceeded on [id][node-1][/data] free: 4.5gb[9.8%], shards will be relocated away".
 * The total is free / share (as printed, so it is rounded).
 */
export function diskSamplesFromLog(lines: readonly { t: number | null; text: string }[]): Record<string, DiskSample[]> {
  const out: Record<string, DiskSample[]> = {};
  const re =
    /disk watermark \[[^\]]*\] (?:exceeded|no longer exceeded) on \[[^\]]*\]\[([^\]]*)\]\[[^\]]*\] free: ([\d.]+[kmgtp]?b)\[([\d.]+)%\]/i;
  for (const l of lines) {
    const m = re.exec(l.text);
    if (!m || l.t === null) continue;
    const free = parseByteSize(m[2]);
    const pct = Number(m[3]);
    if (free === null || !(pct > 0)) continue;
    (out[m[1]] ??= []).push({ t: l.t, availBytes: free, totalBytes: Math.round(free / (pct / 100)) });
  }
  return out;
}
