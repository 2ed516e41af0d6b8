// Index lifecycle management (issue 41): ILM stopped or an index stagnating in one action (the
// health report's ilm indicator on 8.7+; GET _ilm/status and _ilm/explain otherwise), and indices
// in the ERROR step. A distribution without ILM (the test zip has no x-pack ilm module: it answers
// 400 "no handler" or 405) is said, never judged: these rules were tested on plain values only.
// Pure.
import { compareText } from '../text/order';
import type { Finding } from './finding';
import { findingFromIndicator, indicatorOf, type HealthReportView } from './health-report';

type Json = Record<string, any>;

export interface IlmIndex {
  index: string;
  policy: string;
  phase: string;
  action: string;
  step: string;
  /** When it entered its action and its step (ms), when the node says. */
  actionTimeMs: number | null;
  stepTimeMs: number | null;
  failedStep: string | null;
  retries: number;
  /** step_info's reason (ERROR), or its message. */
  reason: string | null;
}

export type IlmView = { available: true; mode: string; indices: IlmIndex[] } | { available: false; why: string };

export const ILM_EXPLAIN_FILTER = [
  'indices.*.index',
  'indices.*.managed',
  'indices.*.policy',
  'indices.*.phase',
  'indices.*.action',
  'indices.*.step',
  'indices.*.action_time_millis',
  'indices.*.step_time_millis',
  'indices.*.failed_step',
  'indices.*.failed_step_retry_count',
  'indices.*.step_info.type',
  'indices.*.step_info.reason',
  'indices.*.step_info.message',
].join(',');

const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** GET _ilm/status and GET _all/_ilm/explain?only_managed=true (filtered): the mode and every managed index. */
export function parseIlm(status: Json, explain: Json): IlmView {
  const indices = Object.entries((explain?.indices ?? {}) as Record<string, Json>)
    .filter(([, x]) => x.managed !== false)
    .map(([name, x]) => ({
      index: String(x.index ?? name),
      policy: String(x.policy ?? ''),
      phase: String(x.phase ?? ''),
      action: String(x.action ?? ''),
      step: String(x.step ?? ''),
      actionTimeMs: numOrNull(x.action_time_millis),
      stepTimeMs: numOrNull(x.step_time_millis),
      failedStep: x.failed_step ? String(x.failed_step) : null,
      retries: numOrNull(x.failed_step_retry_count) ?? 0,
      reason: x.step_info?.reason ? String(x.step_info.reason) : x.step_info?.message ? String(x.step_info.message) : null,
    }))
    .sort((a, b) => compareText(a.index, b.index));
  return { available: true, mode: String(status?.operation_mode ?? 'UNKNOWN'), indices };
}

/** The health report's own thresholds: an index in one action for more than a day with its step retried 100 times is stagnating. */
export const ILM_STAGNATING_MS = 24 * 3600_000;
export const ILM_STAGNATING_RETRIES = 100;

const NAMED = 6;
const names = (xs: IlmIndex[]) =>
  xs
    .slice(0, NAMED)
    .map((x) => x.index)
    .join(', ') + (xs.length > NAMED ? ` and ${xs.length - NAMED} more` : '');

/** ilm.status: ILM running, and no index stagnating in one action. */
export function ilmStatusFinding(health: HealthReportView | undefined, ilm: IlmView | undefined, now: number): Finding {
  const d = indicatorOf(health, 'ilm');
  const more: string[] = ilm?.available ? [`_ilm/status: ${ilm.mode}; ${ilm.indices.length} managed indices`] : [];
  if (d) return findingFromIndicator('ilm.status', 'ilm', d, more);
  if (!ilm || !ilm.available)
    return {
      id: 'ilm.status',
      family: 'ilm',
      severity: 'unknown',
      finding: `ILM not judged: ${ilm ? ilm.why : 'not read'}`,
      evidence: [],
    };
  const stagnating = ilm.indices.filter(
    (x) => x.actionTimeMs !== null && now - x.actionTimeMs > ILM_STAGNATING_MS && x.retries >= ILM_STAGNATING_RETRIES,
  );
  if (ilm.mode !== 'RUNNING')
    return {
      id: 'ilm.status',
      family: 'ilm',
      severity: 'warn',
      finding: `ILM is ${ilm.mode}: no index moves through its lifecycle (no rollover, no delete of old indices)`,
      evidence: more,
      remedy: 'POST _ilm/start, once whatever it was stopped for (an upgrade, a restore) is over',
    };
  if (stagnating.length)
    return {
      id: 'ilm.status',
      family: 'ilm',
      severity: 'warn',
      finding: `${stagnating.length} ind${stagnating.length === 1 ? 'ex stagnates' : 'ices stagnate'} in one ILM action for over a day: ${names(stagnating)}`,
      evidence: [
        ...more,
        ...stagnating
          .slice(0, NAMED)
          .map((x) => `${x.index}: ${x.phase}/${x.action}/${x.step}, ${x.retries} retries${x.reason ? `: ${x.reason}` : ''}`),
      ],
      remedy:
        'GET <index>/_ilm/explain says what its step waits for (an allocation, a shrink node, disk); fix that, then POST <index>/_ilm/retry',
    };
  return {
    id: 'ilm.status',
    family: 'ilm',
    severity: 'ok',
    finding: `ILM ${ilm.mode}, ${ilm.indices.length} managed indices, none stagnating`,
    evidence: more,
  };
}

/** ilm.error: indices in the ERROR step (a failed rollover, shrink or delete), with the reason each gave. */
export function ilmErrorFinding(ilm: IlmView | undefined): Finding {
  if (!ilm || !ilm.available)
    return { id: 'ilm.error', family: 'ilm', severity: 'unknown', finding: `ILM not judged: ${ilm ? ilm.why : 'not read'}`, evidence: [] };
  const failed = ilm.indices.filter((x) => x.step === 'ERROR');
  if (!failed.length) return { id: 'ilm.error', family: 'ilm', severity: 'ok', finding: 'no index in the ILM ERROR step', evidence: [] };
  return {
    id: 'ilm.error',
    family: 'ilm',
    severity: 'warn',
    finding: `${failed.length} ind${failed.length === 1 ? 'ex is' : 'ices are'} in the ILM ERROR step: ${names(failed)}`,
    evidence: failed
      .slice(0, NAMED)
      .map(
        (x) =>
          `${x.index} (policy ${x.policy}): failed at ${x.phase}/${x.action}/${x.failedStep ?? '?'}${x.retries ? ` after ${x.retries} retries` : ''}${x.reason ? `: ${x.reason}` : ''}`,
      ),
    remedy:
      'fix what the reason names (a missing rollover alias, a shrink without a node holding every shard, disk), then POST <index>/_ilm/retry',
  };
}

export function ilmFindings(health: HealthReportView | undefined, ilm: IlmView | undefined, now: number): Finding[] {
  return [ilmStatusFinding(health, ilm, now), ilmErrorFinding(ilm)];
}
