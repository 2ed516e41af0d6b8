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

/** 12345 -> "12,345" (fixed locale so output and snapshots do not depend on the machine). */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined) return '-';
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
