// The health report's indicators as findings (issue 41): GET _health_report?verbose=false first
// (8.7+), then the verbose answer of each indicator that is not green, for its details and its
// diagnoses (cause, action, affected indices). Six indicators have a rule of their own, which also
// judges what an older node's answers allow (master.stable, ilm.status, snapshots.slm,
// snapshots.repository, health.data-stream-lifecycle, health.file-settings); every other indicator
// that is not green (shards_availability, disk, shards_capacity, one a later version adds) becomes a
// health.report finding beside shardeck's own rules for it. Pure.
import { parseHealthReport } from '../parse';
import type { HealthDiagnosis, HealthIndicator, HealthReport, IndicatorStatus } from '../types';
import type { Finding, Severity } from './finding';
import type { DoctorSample } from './sample';

type Json = Record<string, any>;

/** An indicator as the verbose read gave it: the parsed indicator and its details (a free-form object). */
export interface IndicatorDetail {
  indicator: HealthIndicator;
  details: Json;
}

/** What the doctor knows of the health report: the report and the verbose answer of each indicator not green, or why there is none. */
export type HealthReportView =
  | { available: true; report: HealthReport; verbose: Record<string, IndicatorDetail>; verboseErrors?: Record<string, string> }
  | { available: false; why: string };

/** The indicators a rule of its own judges (with what an older node allows), by that rule's id. */
export const OWNED_INDICATORS: Record<string, string> = {
  master_is_stable: 'master.stable',
  ilm: 'ilm.status',
  slm: 'snapshots.slm',
  repository_integrity: 'snapshots.repository',
  data_stream_lifecycle: 'health.data-stream-lifecycle',
  file_settings: 'health.file-settings',
};

/** The verbose answer of one indicator (GET _health_report/<name>?verbose=true). */
export function parseIndicatorDetail(body: Json, name: string): IndicatorDetail | undefined {
  const indicator = parseHealthReport(body).indicators.find((i) => i.name === name);
  if (!indicator) return undefined;
  const details = body?.indicators?.[name]?.details;
  return { indicator, details: details && typeof details === 'object' ? (details as Json) : {} };
}

export function severityOf(status: IndicatorStatus): Severity {
  return status === 'red' ? 'critical' : status === 'yellow' ? 'warn' : status === 'green' ? 'ok' : 'unknown';
}

/** The most diagnoses and affected indices a finding names (the rest are counted). */
const DIAGNOSES = 4;
const AFFECTED = 6;

/** Evidence lines of an indicator: its symptom, impacts and each diagnosis (cause, action, affected indices). */
export function indicatorEvidence(ind: HealthIndicator): string[] {
  const out = [`_health_report ${ind.name}: ${ind.status}: ${ind.symptom}`];
  for (const i of ind.impacts) out.push(`impact: ${i.description}${i.areas.length ? ` (${i.areas.join(', ')})` : ''}`);
  for (const d of ind.diagnoses.slice(0, DIAGNOSES)) out.push(...diagnosisLines(d));
  if (ind.diagnoses.length > DIAGNOSES) out.push(`... and ${ind.diagnoses.length - DIAGNOSES} more diagnoses`);
  return out;
}

function diagnosisLines(d: HealthDiagnosis): string[] {
  const shown = d.affectedIndices.slice(0, AFFECTED);
  const more = d.affectedIndices.length - shown.length;
  return [
    `cause: ${d.cause}`,
    `action: ${d.action}${d.helpUrl ? ` (${d.helpUrl})` : ''}`,
    ...(shown.length ? [`affected indices: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`] : []),
  ];
}

/** The remedy of a non-green indicator: its diagnoses' actions, or its symptom when it gave none. */
export function indicatorRemedy(ind: HealthIndicator): string | undefined {
  const actions = [...new Set(ind.diagnoses.map((d) => d.action).filter(Boolean))];
  return actions.length ? actions.join('; ') : undefined;
}

/**
 * The indicator of the report, as given verbose when it was not green (its diagnoses and details),
 * or as polled; undefined when the report lacks it (or there is no report).
 */
export function indicatorOf(view: HealthReportView | undefined, name: string): IndicatorDetail | undefined {
  if (!view?.available) return undefined;
  const verbose = view.verbose[name];
  if (verbose) return verbose;
  const ind = view.report.indicators.find((i) => i.name === name);
  return ind ? { indicator: ind, details: {} } : undefined;
}

/** A finding made from one indicator, for the rule that owns it (its id and family). */
export function findingFromIndicator(id: string, family: Finding['family'], d: IndicatorDetail, more: string[] = []): Finding {
  const severity = severityOf(d.indicator.status);
  const remedy = indicatorRemedy(d.indicator);
  return {
    id,
    family,
    severity,
    finding: `${d.indicator.symptom || `${d.indicator.name} is ${d.indicator.status}`} (health report: ${d.indicator.status})`,
    evidence: [...indicatorEvidence(d.indicator), ...more],
    ...(severity !== 'ok' && remedy ? { remedy } : {}),
  };
}

/** health.report: every indicator no rule of its own judges, each not green a finding of its own; one finding when all are green. */
export function healthReportFindings(view: HealthReportView | undefined): Finding[] {
  if (!view) return [];
  if (!view.available)
    return [
      {
        id: 'health.report',
        family: 'health',
        severity: 'unknown',
        finding: `no health report: ${view.why}`,
        evidence: [
          "shardeck's own rules judge what the other reads allow (shards, disk, capacity, master, snapshots, ILM and SLM where the node has them)",
          'not judged without it: the indicators a later version adds, and its own diagnoses',
        ],
      },
    ];
  const others = view.report.indicators.filter((i) => !(i.name in OWNED_INDICATORS));
  const bad = others.filter((i) => i.status !== 'green');
  const green = others.filter((i) => i.status === 'green').map((i) => i.name);
  const out: Finding[] = bad.map((i) => {
    const d = view.verbose[i.name] ?? { indicator: i, details: {} };
    const err = view.verboseErrors?.[i.name];
    return findingFromIndicator(`health.report.${i.name}`, 'health', d, err ? [`its diagnoses could not be read: ${err}`] : []);
  });
  if (!bad.length)
    out.push({
      id: 'health.report',
      family: 'health',
      severity: 'ok',
      finding: `health report ${view.report.status}: ${green.length ? green.join(', ') : 'no indicator'} green`,
      evidence: view.report.indicators.map((i) => `${i.name}: ${i.status}`),
    });
  return out;
}

/**
 * health.data-stream-lifecycle: backing indices the data stream lifecycle (8.11+) cannot move on.
 * Only the indicator says it (the lifecycle's own explain needs a data stream to ask about): a node
 * without the indicator is said, not judged.
 */
export function dataStreamLifecycleFindings(view: HealthReportView | undefined): Finding[] {
  if (!view) return [];
  const d = indicatorOf(view, 'data_stream_lifecycle');
  if (d) {
    const count = d.details.stagnating_backing_indices_count;
    return [
      findingFromIndicator(
        'health.data-stream-lifecycle',
        'health',
        d,
        typeof count === 'number' ? [`stagnating backing indices: ${count}`] : [],
      ),
    ];
  }
  return [
    {
      id: 'health.data-stream-lifecycle',
      family: 'health',
      severity: 'unknown',
      finding: view.available
        ? 'this node reports no data_stream_lifecycle indicator: its distribution has no data stream lifecycle, nothing to judge'
        : 'the data stream lifecycle (8.11+) is not on this version: nothing to judge',
      evidence: view.available ? [`indicators: ${view.report.indicators.map((i) => i.name).join(', ')}`] : [view.why],
    },
  ];
}

/**
 * health.file-settings: file-based settings (config/operator/settings.json, 8.4+) that failed to
 * apply. The indicator where the node has it; else the cluster state's reserved_state errors (what
 * the indicator reads too).
 */
export function fileSettingsFindings(view: HealthReportView | undefined, sample: DoctorSample | undefined): Finding[] {
  const d = indicatorOf(view, 'file_settings');
  if (d) {
    const streak = d.details.failure_streak;
    const recent = d.details.most_recent_failure;
    return [
      findingFromIndicator('health.file-settings', 'health', d, [
        ...(typeof streak === 'number' ? [`failures in a row: ${streak}`] : []),
        ...(typeof recent === 'string' ? [`most recent failure: ${recent}`] : []),
      ]),
    ];
  }
  const fs = sample?.fileSettings;
  if (!sample)
    return [{ id: 'health.file-settings', family: 'health', severity: 'unknown', finding: 'the cluster state was not read', evidence: [] }];
  if (!fs)
    return [
      {
        id: 'health.file-settings',
        family: 'health',
        severity: 'ok',
        finding: 'no file-based settings on this cluster (metadata.reserved_state has no file_settings)',
        evidence: [],
      },
    ];
  if (fs.errors)
    return [
      {
        id: 'health.file-settings',
        family: 'health',
        severity: 'warn',
        finding: `file-based settings failed to apply (${fs.errors.kind || 'error'}, version ${fs.errors.version}): the cluster runs on the last settings that applied (version ${fs.version})`,
        evidence: [
          `metadata.reserved_state.file_settings: version ${fs.version}, errors.version ${fs.errors.version}, error_kind ${fs.errors.kind}`,
          ...fs.errors.errors.slice(0, 4).map((e) => `error: ${e.split('\n')[0]}`),
        ],
        remedy:
          'fix config/operator/settings.json on the master-eligible nodes (the errors say what was refused) and raise its metadata.version: Elasticsearch applies it again when the file changes',
      },
    ];
  return [
    {
      id: 'health.file-settings',
      family: 'health',
      severity: 'ok',
      finding:
        fs.version < 0
          ? 'no file-based settings applied (config/operator/settings.json absent), none failed'
          : `file-based settings version ${fs.version} applied, none failed`,
      evidence: [`metadata.reserved_state.file_settings: version ${fs.version}, errors null`],
    },
  ];
}
