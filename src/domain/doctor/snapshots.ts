// Snapshots (issue 41): an index with no successful snapshot within the expected period (a
// setting: --snapshot-every or the profile's doctorSnapshotEvery; off when unset), repeated
// failures (a repository's newest snapshots failing one after the other; an SLM policy whose last
// run failed after its last success), SLM itself (the health report's slm indicator on 8.7+; GET
// _slm/status and _slm/policy where the node has SLM: the test distribution has none, tested on
// plain values only), and repository integrity (the repository_integrity indicator; on older nodes,
// whether each repository's listing can be read). Pure.
import { formatCount } from '../text/format';
import { formatMillis } from '../panes/nodes';
import { holdingIndex, type SlmPolicy, type SnapshotInfo, type SnapshotRepository } from '../snapshots';
import type { IndexRow } from '../types';
import type { Finding } from './finding';
import { findingFromIndicator, indicatorOf, type HealthReportView } from './health-report';

/** What the doctor read of snapshots: every repository's snapshots, and the repositories whose listing failed (with why). */
export interface SnapshotsView {
  repositories: SnapshotRepository[];
  snapshots: SnapshotInfo[];
  /** Repository name -> the error its listing gave. */
  failures: Record<string, string>;
  /** Why nothing could be read (a refusal, an error): every snapshot rule then says so. */
  unreadable?: string;
}

/** SLM as the doctor read it: its mode and policies, or why not (no SLM on this node, no privilege). */
export type SlmView = { available: true; mode: string; policies: SlmPolicy[] } | { available: false; why: string };

/** A repository's newest snapshots failing one after the other from this many is "repeated". */
export const REPEATED_FAILURES = 2;
const NAMED = 6;

/** snapshots.missing: open indices without a whole copy in a snapshot that ended within the period. */
export function missingSnapshotFinding(
  view: SnapshotsView | undefined,
  indices: readonly IndexRow[],
  periodMs: number | undefined,
  now: number,
  source = '--snapshot-every',
): Finding {
  if (!periodMs)
    return {
      id: 'snapshots.missing',
      family: 'snapshots',
      severity: 'unknown',
      finding: 'not judged: no expected snapshot period set (--snapshot-every 24h, or doctorSnapshotEvery in the profile)',
      evidence: [],
    };
  if (!view) return { id: 'snapshots.missing', family: 'snapshots', severity: 'unknown', finding: 'snapshots not read', evidence: [] };
  const open = indices.filter((i) => i.status === 'open' && !i.system);
  const since = now - periodMs;
  const missing = open.filter((i) => !holdingIndex(view.snapshots, i.name).some((s) => (s.endMs ?? 0) >= since));
  const evidence = [
    `expected period ${formatMillis(periodMs)} (${source}); ${formatCount(view.snapshots.length)} snapshots in ${formatCount(view.repositories.length)} repositories`,
    ...missing.slice(0, NAMED).map((i) => {
      const last = holdingIndex(view.snapshots, i.name)[0];
      return `${i.name}: ${last ? `last whole copy ${last.repository}/${last.name}, ${formatMillis(now - (last.endMs ?? 0))} ago` : 'in no snapshot'}`;
    }),
  ];
  if (!missing.length)
    return {
      id: 'snapshots.missing',
      family: 'snapshots',
      severity: 'ok',
      finding: `every open index (${formatCount(open.length)}) has a snapshot from the last ${formatMillis(periodMs)}`,
      evidence,
    };
  return {
    id: 'snapshots.missing',
    family: 'snapshots',
    severity: 'warn',
    finding: `${formatCount(missing.length)} open ind${missing.length === 1 ? 'ex has' : 'ices have'} no successful snapshot from the last ${formatMillis(periodMs)}: ${missing
      .slice(0, NAMED)
      .map((i) => i.name)
      .join(', ')}${missing.length > NAMED ? ` and ${missing.length - NAMED} more` : ''}`,
    evidence,
    remedy: view.repositories.length
      ? "take one now (shardeck snapshot create REPOSITORY) and schedule them (an SLM policy where the node has SLM, or the platform's cron)"
      : 'register a repository (an fs location under path.repo), then take one (shardeck snapshot create REPOSITORY)',
    fix: { command: 'shardeck snapshot create REPOSITORY' },
  };
}

/** snapshots.failing: a repository whose newest snapshots failed one after the other; an SLM policy failing since its last success. */
export function failingSnapshotFinding(view: SnapshotsView | undefined, slm: SlmView | undefined): Finding {
  if (!view) return { id: 'snapshots.failing', family: 'snapshots', severity: 'unknown', finding: 'snapshots not read', evidence: [] };
  const lines: string[] = [];
  const evidence: string[] = [];
  for (const r of view.repositories) {
    const newest = view.snapshots.filter((s) => s.repository === r.name && s.state !== 'IN_PROGRESS');
    let streak = 0;
    while (streak < newest.length && (newest[streak].state === 'FAILED' || newest[streak].state === 'PARTIAL')) streak++;
    if (streak >= REPEATED_FAILURES) {
      lines.push(`the ${streak} newest snapshots of ${r.name} failed`);
      const why = newest[0].failures[0];
      evidence.push(
        ...newest
          .slice(0, Math.min(streak, 3))
          .map(
            (s) =>
              `${r.name}/${s.name}: ${s.state}, ${s.shards.failed} of ${s.shards.total} shards failed${s.failures[0] ? `: ${s.failures[0].reason}` : ''}`,
          ),
      );
      if (!why && newest[0].state === 'FAILED')
        evidence.push(`${r.name}/${newest[0].name}: no shard failure named (the snapshot itself failed)`);
    }
  }
  if (slm?.available)
    for (const p of slm.policies)
      if (p.lastFailure && (p.lastSuccessMs ?? 0) < p.lastFailure.timeMs) {
        lines.push(
          `SLM policy ${p.id} has failed since ${p.lastSuccessMs ? new Date(p.lastSuccessMs).toISOString() : 'it was made (never succeeded)'}`,
        );
        evidence.push(
          `${p.id} (repository ${p.repository}): last failure ${new Date(p.lastFailure.timeMs).toISOString()}: ${p.lastFailure.reason.slice(0, 300)}`,
        );
      }
  if (!lines.length)
    return {
      id: 'snapshots.failing',
      family: 'snapshots',
      severity: 'ok',
      finding: 'no repeated snapshot failure',
      evidence: [
        `${formatCount(view.snapshots.length)} snapshots in ${formatCount(view.repositories.length)} repositories${slm?.available ? `, ${slm.policies.length} SLM policies` : ''}`,
      ],
    };
  return {
    id: 'snapshots.failing',
    family: 'snapshots',
    severity: 'warn',
    finding: `snapshots keep failing: ${lines.join('; ')}`,
    evidence,
    remedy:
      "the failures name the cause (a red index: partial: true or fix it first; the repository's disk full or unreachable: shardeck snapshots REPOSITORY; a concurrent snapshot); then take one by hand to check (shardeck snapshot create REPOSITORY)",
    fix: { command: 'shardeck snapshots' },
  };
}

/** snapshots.slm: SLM running and its policies not failing (the slm indicator on 8.7+). */
export function slmFinding(health: HealthReportView | undefined, slm: SlmView | undefined): Finding {
  const d = indicatorOf(health, 'slm');
  if (d) {
    const unhealthy = d.details.unhealthy_policies?.invocations_since_last_success;
    const more =
      unhealthy && typeof unhealthy === 'object'
        ? Object.entries(unhealthy as Record<string, number>).map(([p, n]) => `policy ${p}: ${n} invocations since its last success`)
        : [];
    return findingFromIndicator('snapshots.slm', 'snapshots', d, more);
  }
  if (!slm || !slm.available)
    return {
      id: 'snapshots.slm',
      family: 'snapshots',
      severity: 'unknown',
      finding: `SLM not judged: ${slm ? slm.why : 'not read'}`,
      evidence: [],
    };
  const failing = slm.policies.filter((p) => p.lastFailure && (p.lastSuccessMs ?? 0) < p.lastFailure.timeMs);
  const evidence = [
    `_slm/status: ${slm.mode}; ${slm.policies.length} policies`,
    ...failing.map((p) => `${p.id}: last run failed: ${p.lastFailure!.reason.slice(0, 200)}`),
  ];
  if (slm.mode !== 'RUNNING')
    return {
      id: 'snapshots.slm',
      family: 'snapshots',
      severity: slm.policies.length ? 'warn' : 'ok',
      finding: `SLM is ${slm.mode}${slm.policies.length ? `: its ${slm.policies.length} policies take no snapshot` : ' (no policy)'}`,
      evidence,
      ...(slm.policies.length ? { remedy: 'POST _slm/start once whatever it was stopped for is over' } : {}),
    };
  if (failing.length)
    return {
      id: 'snapshots.slm',
      family: 'snapshots',
      severity: 'warn',
      finding: `SLM policy ${failing.map((p) => p.id).join(', ')} failed on its last run (the failures since its last success are counted by the health report of 8.7+ only)`,
      evidence,
      remedy: 'the reason names the cause (the repository, a red index); fix it, then POST _slm/policy/<id>/_execute to check',
    };
  return {
    id: 'snapshots.slm',
    family: 'snapshots',
    severity: 'ok',
    finding: `SLM ${slm.mode}, ${slm.policies.length} policies, none failing`,
    evidence,
  };
}

/** snapshots.repository: repositories corrupt, unknown or invalid (the repository_integrity indicator; else a listing that fails). */
export function repositoryFinding(health: HealthReportView | undefined, view: SnapshotsView | undefined): Finding {
  const d = indicatorOf(health, 'repository_integrity');
  const failed = Object.entries(view?.failures ?? {});
  const more = failed.map(([r, e]) => `${r}: its listing failed: ${e}`);
  if (d) {
    const corrupted = d.details.corrupted;
    const f = findingFromIndicator('snapshots.repository', 'snapshots', d, [
      ...(Array.isArray(corrupted) && corrupted.length ? [`corrupted: ${corrupted.join(', ')}`] : []),
      ...more,
    ]);
    // The indicator knows only repositories the node marked corrupt; one whose listing fails is said too.
    if (f.severity !== 'ok' || !failed.length) return f;
  }
  if (!view)
    return { id: 'snapshots.repository', family: 'snapshots', severity: 'unknown', finding: 'repositories not read', evidence: [] };
  if (failed.length)
    return {
      id: 'snapshots.repository',
      family: 'snapshots',
      severity: 'warn',
      finding: `${failed.length} repositor${failed.length === 1 ? 'y' : 'ies'} could not be read: ${failed.map(([r]) => r).join(', ')}: no snapshot can be taken or restored from ${failed.length === 1 ? 'it' : 'them'}`,
      evidence: more,
      remedy:
        'a corrupt repository (another cluster wrote to it, or its files changed): register it again (PUT _snapshot/<name> with the same settings) after making sure only this cluster writes to it; unreachable: its location (path.repo, the mount) on every node',
      fix: { command: 'shardeck snapshots' },
    };
  return {
    id: 'snapshots.repository',
    family: 'snapshots',
    severity: 'ok',
    finding: view.repositories.length
      ? `${view.repositories.length} repositor${view.repositories.length === 1 ? 'y' : 'ies'} read without error`
      : 'no snapshot repository registered',
    evidence: view.repositories.map((r) => `${r.name} (${r.type})`),
  };
}

export interface SnapshotInputs {
  health?: HealthReportView;
  view?: SnapshotsView;
  slm?: SlmView;
  indices: readonly IndexRow[];
  periodMs?: number;
  periodSource?: string;
  now: number;
}

export function snapshotFindings(i: SnapshotInputs): Finding[] {
  if (i.view?.unreadable) {
    const why = i.view.unreadable;
    return [
      ...(['snapshots.missing', 'snapshots.failing', 'snapshots.repository'] as const).map((id): Finding => ({
        id,
        family: 'snapshots',
        severity: 'unknown',
        finding: `snapshots not read: ${why}`,
        evidence: [],
      })),
      slmFinding(i.health, i.slm),
    ];
  }
  return [
    missingSnapshotFinding(i.view, i.indices, i.periodMs, i.now, i.periodSource),
    failingSnapshotFinding(i.view, i.slm),
    slmFinding(i.health, i.slm),
    repositoryFinding(i.health, i.view),
  ];
}
