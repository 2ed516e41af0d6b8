// The Health pane's lines: the cluster's status and counts (with why it is not green), and the
// _health_report indicators worst first with their impacts and, once asked for, diagnoses.
import { formatCount, formatPercent, statusTone, type Tone } from '../format';
import { fitText } from '../table';
import type { ClusterHealth, HealthDiagnosis, HealthReport } from '../types';
import { wrapText } from '../text';

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
    { text: `nodes ${h.numberOfNodes} (data ${h.numberOfDataNodes})   pending tasks ${formatCount(h.pendingTasks)}   active shards ${formatPercent(h.activeShardsPercent, 1)}` },
    {
      text: `shards  active ${formatCount(h.activeShards)} (pri ${formatCount(h.activePrimaryShards)})  initializing ${h.initializingShards}  relocating ${h.relocatingShards}  unassigned ${h.unassignedShards} (pri ${h.unassignedPrimaryShards})`,
      tone: h.unassignedPrimaryShards > 0 ? 'red' : h.unassignedShards > 0 ? 'yellow' : undefined,
    },
  ];
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
export function reportHeading(total: number, start: number, shown: number, room: number): string {
  return `health report (worst first)${total > room ? `  ${start + 1}-${start + shown} of ${total} ↑↓` : ''}`;
}

/** Where the verbose diagnosis stands (the d key). */
export function diagnosisHint(d: { fetchedAt?: number; inFlight: boolean; error?: string } | undefined): string {
  return d?.inFlight ? 'diagnosing…' : d?.error ? `diagnosis failed: ${d.error}` : d?.fetchedAt ? 'diagnosis below (d: again)' : 'd: diagnose (verbose health report)';
}
