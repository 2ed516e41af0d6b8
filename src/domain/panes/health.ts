// The Health pane's lines: the cluster's status and counts (with why it is not green), and the
// _health_report indicators worst first with their impacts and, once asked for, diagnoses.
import { formatCount, formatPercent, statusTone, type Tone } from '../text/format';
import { fitText } from '../text/table';
import type { ClusterHealth, HealthDiagnosis, HealthReport } from '../types';
import type { StatusReport } from '../inspect/status';
import type { AllocationExplanation } from '../wizards/allocation';
import { wrapText } from '../text/text';
import { displayText } from '../text/display-text';

/** One line of the pane and how it is drawn. */
export interface PaneLine {
  text: string;
  tone?: Tone;
  bold?: boolean;
  dim?: boolean;
}

/** The status line, the reason it is not green (when known), the node and shard counts. */
export function summaryLines(h: ClusterHealth, version: string | undefined, why: string | null): PaneLine[] {
  return [
    {
      text: `${h.clusterName}  ${h.status.toUpperCase()}${version ? `  Elasticsearch ${version}` : ''}`,
      tone: statusTone(h.status),
      bold: true,
    },
    ...(why ? [{ text: why, tone: statusTone(h.status) }] : []),
    {
      text: `nodes ${h.numberOfNodes} (data ${h.numberOfDataNodes})   pending tasks ${formatCount(h.pendingTasks)}   active shards ${formatPercent(h.activeShardsPercent, 1)}`,
    },
    {
      text: `shards  active ${formatCount(h.activeShards)} (pri ${formatCount(h.activePrimaryShards)})  initializing ${h.initializingShards}  relocating ${h.relocatingShards}  unassigned ${h.unassignedShards}${h.unassignedPrimaryShards === null ? '' : ` (pri ${h.unassignedPrimaryShards})`}`,
      // Before 8.16 the count of primaries is not said: a red status is what says one is missing.
      tone: (h.unassignedPrimaryShards ?? (h.status === 'red' ? 1 : 0)) > 0 ? 'red' : h.unassignedShards > 0 ? 'yellow' : undefined,
    },
  ];
}

/** A warning line per thing that limits allocation or rebalancing (the cluster's values made safe to show). */
export function allocationLimitLines(texts: readonly string[]): PaneLine[] {
  return texts.map((t) => ({ text: `WARNING ${displayText(t)}`, tone: 'yellow' as const }));
}

/** Splits a long line at spaces so the "why" sentence is read whole at 80 columns. */
export function wrapLine(l: PaneLine, width: number): PaneLine[] {
  return wrapText(l.text, width).map((text) => ({ ...l, text }));
}

/** The indicators as lines: one per indicator, its impacts indented under the ones not green. */
export function indicatorLines(report: HealthReport, width: number, diagnoses: Record<string, HealthDiagnosis[]> = {}): PaneLine[] {
  const lines: PaneLine[] = [];
  for (const ind of report.indicators) {
    const head = `${fitText(ind.status.toUpperCase(), 7)} ${fitText(ind.name, 20)} ${ind.symptom}`;
    lines.push({ text: fitText(head, width), tone: statusTone(ind.status), bold: ind.status !== 'green' });
    if (ind.status === 'green') continue;
    for (const imp of ind.impacts) lines.push({ text: fitText(`        impact: ${imp.description}`, width), dim: true });
    for (const d of diagnoses[ind.name] ?? ind.diagnoses) {
      lines.push({ text: fitText(`        cause: ${d.cause}`, width) });
      lines.push({ text: fitText(`        do: ${d.action}`, width), tone: 'yellow' });
    }
  }
  return lines;
}

/** The report's heading, with the lines shown when they do not all fit. */
export function reportHeading(total: number, start: number, shown: number, room: number, own = false): string {
  return `${own ? "shardeck's diagnosis (no health report)" : 'health report (worst first)'}${total > room ? `  ${start + 1}-${start + shown} of ${total} ↑↓` : ''}`;
}

/** Where the verbose diagnosis stands (the d key). */
export function diagnosisHint(d: { fetchedAt?: number; inFlight: boolean; error?: string } | undefined, own = false): string {
  const ask = own ? 'd: explain the first unassigned shard (allocation explain)' : 'd: diagnose (verbose health report)';
  return d?.inFlight ? 'diagnosing…' : d?.error ? `diagnosis failed: ${d.error}` : d?.fetchedAt ? 'diagnosis below (d: again)' : ask;
}

/**
 * In the health report's place when the node has none (before 8.7, domain/capabilities.ts): what
 * is missing, then the diagnosis shardeck makes itself: the unassigned shards grouped by reason
 * (with the allocation explain of one, once asked for), the disk watermarks and each node's disk.
 */
export function substituteLines(r: StatusReport, missing: string, width: number, explained: HealthDiagnosis[] = []): PaneLine[] {
  const lines: PaneLine[] = wrapLine({ text: missing, dim: true }, width);
  const groups = new Map<string, { n: number; primary: boolean; first: string }>();
  for (const u of r.unassigned) {
    const key = `${u.primary ? 'primary' : 'replica'} ${u.reason ?? 'unknown reason'}`;
    const g = groups.get(key);
    if (g) g.n++;
    else groups.set(key, { n: 1, primary: u.primary, first: `${u.index}/${u.shard}` });
  }
  const unassigned = r.shards.unassigned;
  lines.push({
    text: fitText(`unassigned shards ${formatCount(unassigned)}${unassigned ? ' by reason' : ''}`, width),
    bold: true,
    tone: unassigned ? statusTone(r.status) : undefined,
  });
  for (const [key, g] of groups)
    lines.push({ text: fitText(`  ${formatCount(g.n)} ${key} (e.g. ${g.first})`, width), tone: g.primary ? 'red' : 'yellow' });
  for (const d of explained) {
    lines.push({ text: fitText(`    cause: ${d.cause}`, width) });
    if (d.action) lines.push({ text: fitText(`    do: ${d.action}`, width), tone: 'yellow' });
  }
  const w = r.disk.watermarks;
  lines.push({
    text: fitText(`disk watermarks  low ${w.low}  high ${w.high}  flood ${w.flood}${w.enabled ? '' : '  (threshold disabled)'}`, width),
    bold: true,
  });
  for (const n of r.disk.nodes) {
    const tone: Tone | undefined = n.level === 'flood' ? 'red' : n.level === 'high' || n.level === 'low' ? 'yellow' : undefined;
    lines.push({
      text: fitText(
        `  ${n.node}  used ${formatPercent(n.usedPercent, 1)}  ${n.level === 'ok' ? 'below the low watermark' : `past the ${n.level} watermark`}`,
        width,
      ),
      tone,
    });
  }
  return lines;
}

/** One allocation explain as the substitute's diagnosis: Elasticsearch's verdict and the advice. */
export function explanationDiagnoses(x: AllocationExplanation): HealthDiagnosis[] {
  const shard = `${x.shard.index}/${x.shard.shard} ${x.shard.primary ? 'primary' : 'replica'}`;
  const cause = `${shard}: ${x.verdict}${x.unassignedReason ? `; unassigned because ${x.unassignedReason}` : ''}`;
  return [{ cause, action: x.advice.join('; '), affectedIndices: [x.shard.index] }];
}
