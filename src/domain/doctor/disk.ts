// Disk: each node against the effective watermarks, the read-only blocks, and the forecast of when
// each node reaches them. Pure.
import { diskRows, headroomText } from '../nodes/disk';
import { formatBytes, formatPercent } from '../text/format';
import type { IndexBlocks, NodeDisk, Watermarks } from '../types';
import { FIXES, type Finding } from './finding';
import type { DiskForecast } from './forecast';

const FREE_REMEDY =
  'free disk space: delete what is no longer needed (delete by query D, then force merge M to give the space back), or add disk; about 20% free is needed to reassign shards';

export function diskFindings(disks: readonly NodeDisk[], w: Watermarks, blocks: readonly IndexBlocks[]): Finding[] {
  const marks = `watermarks low ${w.low.raw}, high ${w.high.raw}, flood stage ${w.flood.raw}${w.thresholdEnabled ? '' : ' (disk threshold decider OFF)'}`;
  const out: Finding[] = diskRows([...disks], w).map((r) => {
    const ev = [
      `${formatPercent(r.usedPercent, 1)} used, ${formatBytes(r.availBytes)} free of ${formatBytes(r.totalBytes)} (${r.availBytes} B free)`,
      `${marks}: on this disk ${formatPercent(r.marks.low, 1)} / ${formatPercent(r.marks.high, 1)} / ${formatPercent(r.marks.flood, 1)} used`,
    ];
    const base = { id: `disk.watermark.${r.node}`, family: 'disk' as const, node: r.node, evidence: ev };
    switch (r.level) {
      case 'flood':
        return {
          ...base,
          severity: 'critical' as const,
          finding: `past the flood stage watermark: the node's indices become read-only (deletes still allowed)`,
          remedy: `${FREE_REMEDY}; then clear the read-only block`,
          fix: FIXES.unblock(),
        };
      case 'high':
        return {
          ...base,
          severity: 'warn' as const,
          finding: `past the high watermark: Elasticsearch relocates shards away from this node`,
          remedy: FREE_REMEDY,
        };
      case 'low':
        return {
          ...base,
          severity: 'warn' as const,
          finding: `past the low watermark: no new shards are allocated to this node`,
          remedy: FREE_REMEDY,
        };
      default:
        return {
          ...base,
          severity: 'ok' as const,
          finding: `below the watermarks (${headroomText(r.headroomToHighBytes)})`,
        };
    }
  });
  // The flood-stage block (read_only_allow_delete); index.blocks.read_only and write: blocks.ts.
  const ro = blocks.filter((b) => b.readOnlyAllowDelete);
  const flood = out.some((f) => f.severity === 'critical');
  out.push(
    ro.length
      ? {
          id: 'disk.read-only',
          family: 'disk',
          severity: 'critical',
          finding: `${ro.length} ${ro.length === 1 ? 'index is' : 'indices are'} read-only${flood ? ' (a node is past the flood stage)' : ' while no node is past the flood stage: the block stays until cleared'}: writes fail with a cluster block exception`,
          evidence: ro
            .slice(0, 8)
            .map((b) => `${b.index}: index.blocks.read_only_allow_delete=true`)
            .concat(ro.length > 8 ? [`... and ${ro.length - 8} more`] : []),
          remedy: flood
            ? `${FREE_REMEDY}; then clear the read-only block`
            : 'clear the read-only block (PUT /*/_settings {"index.blocks.read_only_allow_delete": null})',
          fix: FIXES.unblock(),
        }
      : { id: 'disk.read-only', family: 'disk', severity: 'ok', finding: 'no index is read-only', evidence: [] },
  );
  return out;
}

function inWords(ms: number): string {
  const h = ms / 3_600_000;
  if (h < 1) return `${Math.max(1, Math.round(ms / 60_000))} min`;
  if (h < 48) return `${h.toFixed(h < 10 ? 1 : 0)} h`;
  return `${Math.round(h / 24)} days`;
}

/** Within this, reaching the flood stage is critical; reaching high or flood within a week is a warning. */
export const FLOOD_SOON_MS = 24 * 3_600_000;
export const WEEK_MS = 7 * 24 * 3_600_000;

export function forecastFindings(nodes: readonly string[], forecasts: Record<string, DiskForecast | null>): Finding[] {
  return nodes.map((node) => {
    const f = forecasts[node];
    const id = `disk.forecast.${node}`;
    if (!f)
      return {
        id,
        family: 'disk' as const,
        severity: 'unknown' as const,
        node,
        finding: 'no forecast: no disk growth seen yet (keep the console open a few minutes, or the log has no watermark history)',
        evidence: [],
      };
    const eta = (s: 'low' | 'high' | 'flood') => f.etas.find((e) => e.stage === s)!.inMs;
    const say = f.etas
      .map((e) => `${e.stage} ${e.inMs === null ? 'not at this rate' : e.inMs === 0 ? 'reached' : `in ${inWords(e.inMs)}`}`)
      .join(', ');
    const flood = eta('flood');
    const high = eta('high');
    const critical = flood !== null && flood > 0 && flood <= FLOOD_SOON_MS;
    const warn = !critical && ((flood !== null && flood > 0 && flood <= WEEK_MS) || (high !== null && high > 0 && high <= WEEK_MS));
    const growth = f.growthPerHour >= 0 ? `+${formatBytes(f.growthPerHour)}/h` : `-${formatBytes(-f.growthPerHour)}/h`;
    return {
      id,
      family: 'disk' as const,
      severity: critical ? ('critical' as const) : warn ? ('warn' as const) : ('ok' as const),
      node,
      finding: `at ${growth}: ${say}`,
      evidence: [
        `${f.samples} samples over ${inWords(f.spanMs)} (${f.source === 'console' ? 'seen by the console' : "from the log's watermark warnings"})`,
      ],
      ...(critical || warn ? { remedy: FREE_REMEDY } : {}),
    };
  });
}
