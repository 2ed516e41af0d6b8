// The Doctor pane's rows: one per finding, worst first (the report's order), and the lines shown
// under the table for the selected one: evidence, remedy and what applies it.
import type { Tone } from '../text/format';
import type { Finding, Severity } from '../doctor/finding';
import { fitText, type Column, type SortKey } from '../text/table';
import { wrapLine, type PaneLine } from './health';

export const SEVERITY_TONE: Record<Severity, Tone> = { critical: 'red', warn: 'yellow', unknown: 'gray', ok: 'green' };
const LABEL: Record<Severity, string> = { critical: 'CRIT', warn: 'WARN', unknown: '----', ok: 'ok' };
const RANK: Record<Severity, number> = { critical: 0, warn: 1, unknown: 2, ok: 3 };

export const DOCTOR_SORT_KEYS: SortKey<Finding>[] = [
  { title: 'sev', value: (f) => RANK[f.severity] },
  { title: 'check', value: (f) => f.family },
  { title: 'node', value: (f) => f.node ?? '' },
  { title: 'finding', value: (f) => f.finding },
  // The findings a key can fix first.
  { title: 'fix', value: (f) => (f.fix?.key ? 0 : 1) },
];

export const doctorSearchText = (f: Finding) => `${f.id} ${f.node ?? ''} ${f.finding}`;

export const DOCTOR_COLUMNS: Column<Finding>[] = [
  { title: 'sev', width: 4, text: (f) => LABEL[f.severity], tone: (f) => SEVERITY_TONE[f.severity] },
  { title: 'check', width: 8, text: (f) => f.family },
  { title: 'node', width: 12, text: (f) => f.node ?? '', cut: 'middle' },
  { title: 'finding', width: null, text: (f) => f.finding },
  { title: 'fix', width: 3, text: (f) => f.fix?.key ?? '' },
];

/** The selected finding in full, wrapped to the width: what, the remedy and what applies it, then the evidence (cut first when room is short). */
export function findingDetail(f: Finding, readOnly: boolean, width: number): PaneLine[] {
  const out: PaneLine[] = [...wrapLine({ text: f.finding, tone: SEVERITY_TONE[f.severity] }, width)];
  if (f.remedy) out.push(...wrapLine({ text: `remedy: ${f.remedy}` }, width));
  if (f.fix) {
    const key = f.fix.key && !readOnly ? `Enter or ${f.fix.key} opens the wizard; or ` : '';
    out.push(...wrapLine({ text: `apply: ${key}${f.fix.command}` }, width));
  }
  for (const e of f.evidence) out.push({ text: fitText(`  ${e}`, width), tone: 'gray' });
  return out;
}
