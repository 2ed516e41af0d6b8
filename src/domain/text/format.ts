// Formatting shared by the panes and the text output of subcommands.

const UNITS = ['b', 'kb', 'mb', 'gb', 'tb', 'pb'];

/** 1536 -> "1.5kb", in Elasticsearch's own units (1024-based, lower case). */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '-';
  let v = Math.abs(n);
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  const s = u === 0 ? String(Math.round(v)) : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
  return `${n < 0 ? '-' : ''}${s}${UNITS[u]}`;
}

/** Age of data for the panes: "now", "4s", "2m", "1h". */
export function formatAge(ms: number): string {
  if (ms < 1000) return 'now';
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  return `${Math.floor(m / 60)}h`;
}

export function formatPercent(p: number, digits = 0): string {
  return `${p.toFixed(digits)}%`;
}

/** "1 node", "2 nodes", "1,200 indices": the count and its noun in the number it needs. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}

/** An ISO time to the minute, in UTC: "2026-11-28 19:59 UTC". */
export function minuteUtc(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** 12345 -> "12,345" (fixed locale so output and snapshots do not depend on the machine). */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined) return '-';
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "3s ago", "just now": the age line of every pane. */
export function formatAgo(ms: number): string {
  const age = formatAge(Math.max(0, ms));
  return age === 'now' ? 'just now' : `${age} ago`;
}

/** Colour with a meaning: green fine, yellow attention, red act now, gray unknown. */
/** blue, magenta and cyan are a profile's label only (domain/console/profile-badge.ts): states use the first four. */
export type Tone = 'green' | 'yellow' | 'red' | 'gray' | 'blue' | 'magenta' | 'cyan';

/** Cluster, index and health-indicator status as a tone. */
export function statusTone(status: string | undefined): Tone {
  return status === 'green' ? 'green' : status === 'yellow' ? 'yellow' : status === 'red' ? 'red' : 'gray';
}

/** Disk levels: below low is fine, past low attention, past high or flood act now. */
export function diskLevelTone(level: 'ok' | 'low' | 'high' | 'flood'): Tone {
  return level === 'ok' ? 'green' : level === 'low' ? 'yellow' : 'red';
}

/**
 * A horizontal bar of `width` cells for a percentage, with letters at mark positions (e.g. the
 * L/H/F of disk watermarks), so it reads the same with and without colour. Returns the filled
 * and the empty part separately for colouring.
 */
export function barText(percent: number, width: number, marks: { at: number; char: string }[] = []): { filled: string; empty: string } {
  const w = Math.max(1, width);
  const n = Math.max(0, Math.min(w, Math.round((percent / 100) * w)));
  const cells: string[] = Array.from({ length: w }, (_, i) => (i < n ? '█' : '·'));
  for (const m of marks) {
    const i = Math.max(0, Math.min(w - 1, Math.round((m.at / 100) * w) - 1));
    cells[i] = m.char;
  }
  return { filled: cells.slice(0, n).join(''), empty: cells.slice(n).join('') };
}

/** 32 GB: above it the JVM loses compressed object pointers (seed, Limits: never above 32 GB). */
export const HEAP_CEILING_BYTES = 32 * 1024 ** 3;

/**
 * Heap max against the machine (seed, Limits): red above 32 GB, yellow above 50% of RAM (the
 * 30% rule for a shared machine cannot be seen from the node, so it is left to the operator).
 */
export function heapSizeTone(heapMaxBytes: number, ramBytes: number): Tone {
  if (heapMaxBytes > HEAP_CEILING_BYTES) return 'red';
  if (ramBytes > 0 && heapMaxBytes > ramBytes / 2) return 'yellow';
  return 'green';
}

/** Share used of a limit: green below 75%, yellow below 90%, red from there. */
export function usageTone(used: number, limit: number): Tone {
  if (limit <= 0) return 'gray';
  const p = used / limit;
  return p >= 0.9 ? 'red' : p >= 0.75 ? 'yellow' : 'green';
}
