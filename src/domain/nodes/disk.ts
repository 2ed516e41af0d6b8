// Disk watermark math, as Elasticsearch 8's disk threshold decider applies it.
//
// A percentage watermark ("85%", or a ratio "0.85") asks for (100 - p)% of the disk to stay free,
// capped by its max_headroom (8.5+: a percentage watermark on a large disk asks for at most
// max_headroom free). Elasticsearch fills in the max_headroom defaults (200GB/150GB/100GB) only
// when the watermark itself was not set; setting the watermark makes the default -1 (no cap),
// which the settings API reports itself, so we just read the effective value.
// An absolute watermark ("500mb") is the free space that must remain.
import { formatBytes } from '../text/format';
import type { DiskLevel, NodeDisk, Watermark, WatermarkValue, Watermarks } from '../types';

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
  tb: 1024 ** 4,
  pb: 1024 ** 5,
};

/** Parses Elasticsearch byte sizes ("100gb", "20GB", "1.5tb", "512b"); null for -1 or junk. */
export function parseByteSize(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*([kmgtp]?b)?\s*$/i.exec(raw);
  if (!m) return null;
  const n = Number(m[1]);
  if (n < 0) return null;
  return Math.round(n * UNITS[(m[2] ?? 'b').toLowerCase()]);
}

export function parseWatermarkValue(raw: string): WatermarkValue {
  const t = raw.trim();
  if (t.endsWith('%')) return { kind: 'percent', usedPercent: Number(t.slice(0, -1)) };
  // A bare number is a ratio of the disk used (0.85 = 85%).
  if (/^\d+(\.\d+)?$/.test(t)) return { kind: 'percent', usedPercent: Number(t) * 100 };
  const bytes = parseByteSize(t);
  if (bytes === null) throw new Error(`unrecognised disk watermark value "${raw}"`);
  return { kind: 'free', freeBytes: bytes };
}

export function parseWatermark(raw: string, maxHeadroom: string | undefined): Watermark {
  return { value: parseWatermarkValue(raw), maxHeadroomBytes: parseByteSize(maxHeadroom), raw };
}

/** Free bytes a node of this size must keep to stay below the watermark. */
export function requiredFreeBytes(w: Watermark, totalBytes: number): number {
  if (w.value.kind === 'free') return w.value.freeBytes;
  const byPercent = (totalBytes * (100 - w.value.usedPercent)) / 100;
  return w.maxHeadroomBytes === null ? byPercent : Math.min(byPercent, w.maxHeadroomBytes);
}

/** The watermark expressed as "percent of this node's disk used", for drawing it on a bar. */
export function watermarkUsedPercent(w: Watermark, totalBytes: number): number {
  if (totalBytes <= 0) return 100;
  const pct = 100 - (requiredFreeBytes(w, totalBytes) / totalBytes) * 100;
  return Math.max(0, Math.min(100, pct));
}

export function diskLevel(disk: Pick<NodeDisk, 'availBytes' | 'totalBytes'>, w: Watermarks): DiskLevel {
  if (!w.thresholdEnabled) return 'ok';
  const free = disk.availBytes;
  if (free < requiredFreeBytes(w.flood, disk.totalBytes)) return 'flood';
  if (free < requiredFreeBytes(w.high, disk.totalBytes)) return 'high';
  if (free < requiredFreeBytes(w.low, disk.totalBytes)) return 'low';
  return 'ok';
}

export function usedPercent(disk: Pick<NodeDisk, 'usedBytes' | 'totalBytes'>): number {
  return disk.totalBytes > 0 ? (disk.usedBytes / disk.totalBytes) * 100 : 0;
}

/** Bytes that can still be written before the node crosses the given watermark (0 when past it). */
export function headroomBytes(disk: Pick<NodeDisk, 'availBytes' | 'totalBytes'>, w: Watermark): number {
  return Math.max(0, disk.availBytes - requiredFreeBytes(w, disk.totalBytes));
}

/** The one name of a node's room before the high watermark ("53.5gb before high"), in the panes and every command (issue 47 item 10). */
export function headroomText(bytes: number): string {
  return `${formatBytes(bytes)} before high`;
}

export interface DiskRow {
  node: string;
  usedPercent: number;
  usedBytes: number;
  totalBytes: number;
  availBytes: number;
  level: DiskLevel;
  marks: { low: number; high: number; flood: number };
  headroomToHighBytes: number;
}

export function diskRows(disks: NodeDisk[], w: Watermarks): DiskRow[] {
  return disks.map((d) => ({
    node: d.node,
    usedPercent: usedPercent(d),
    usedBytes: d.usedBytes,
    totalBytes: d.totalBytes,
    availBytes: d.availBytes,
    level: diskLevel(d, w),
    marks: {
      low: watermarkUsedPercent(w.low, d.totalBytes),
      high: watermarkUsedPercent(w.high, d.totalBytes),
      flood: watermarkUsedPercent(w.flood, d.totalBytes),
    },
    headroomToHighBytes: headroomBytes(d, w.high),
  }));
}
