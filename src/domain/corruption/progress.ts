// The checklist's progress, saved after every step so a dropped run resumes where it stopped.
import type { CheckIndexResult } from './tool-output';
import { recoveryPlan, stalePrimaryPlan, type PlanFacts, type PlanStep } from './plan';

export type RecoveryMethod = 'checkindex' | 'shard-tool';

export interface StepRecord {
  status: 'done' | 'skipped' | 'failed';
  at: string;
  message: string;
}

export interface RecoveryProgress {
  version: 1;
  index: string;
  shard: number;
  method: RecoveryMethod;
  facts: PlanFacts;
  startedAt: string;
  steps: Record<string, StepRecord>;
  /** The shard's documents before the repair, as CheckIndex counted them. */
  check?: CheckIndexResult;
  /** elasticsearch-shard's reroute (node id), used in place of the planned one. */
  toolReroute?: { index: string; shard: number; node: string };
  /** Documents counted once the shard is back. */
  docsAfter?: number;
  finished?: boolean;
}

export function newProgress(method: RecoveryMethod, facts: PlanFacts, now: string): RecoveryProgress {
  return { version: 1, index: facts.index, shard: facts.shard, method, facts, startedAt: now, steps: {} };
}

/** The steps of the chosen method, the reroute taken from elasticsearch-shard once it printed one. */
export function progressSteps(p: RecoveryProgress): PlanStep[] {
  const plan = recoveryPlan(p.facts);
  const steps = p.method === 'shard-tool' ? (plan.alternative ?? []) : plan.steps;
  const r = p.toolReroute;
  return r ? steps.map((s) => (s.id === 'reroute' ? { ...s, request: stalePrimaryPlan(r.index, r.shard, r.node) } : s)) : steps;
}

/** The first step neither done nor skipped; null when the checklist is complete. */
export function nextStep(p: RecoveryProgress): PlanStep | null {
  return progressSteps(p).find((s) => p.steps[s.id]?.status !== 'done' && p.steps[s.id]?.status !== 'skipped') ?? null;
}

/**
 * A failed step is recorded, and so are the steps it undoes: a backup that does not verify is
 * taken again, and a node that did not come back is started again, when the checklist resumes.
 */
export function recordStep(p: RecoveryProgress, id: string, rec: StepRecord): RecoveryProgress {
  const steps = { ...p.steps, [id]: rec };
  if (rec.status === 'failed') {
    if (id === 'verify-backup') delete steps.backup;
    if (id === 'wait') delete steps.start;
  }
  return { ...p, steps };
}

/** What to do after a step failed: where the data stands and how to go on. */
export function failureAdvice(stepId: string, p: RecoveryProgress): string {
  const archive = recoveryPlan(p.facts).archive;
  const advice: Record<string, string> = {
    stop: 'nothing was changed and the engine may still be running: check the service (or --stop-cmd), then run shardeck recover-corrupt --resume',
    backup:
      'the shard folder is untouched and the partial archive was removed: free space or choose another place (--backup-dir DIR), then run shardeck recover-corrupt --resume',
    'verify-backup': `the archive ${archive} does not match the shard folder; it will be taken again: check the backup place, then run shardeck recover-corrupt --resume`,
    check:
      'CheckIndex changed nothing: read its output above (wrong java or lib/? give --java), then run shardeck recover-corrupt --resume',
    exorcise: `CheckIndex -exorcise did not write a new commit, so the broken segments are still referenced; if in doubt, restore the folder from ${archive} before going on; then run shardeck recover-corrupt --resume`,
    'shard-tool': `elasticsearch-shard did not finish its repair; if in doubt, restore the folder from ${archive} before going on; then run shardeck recover-corrupt --resume`,
    markers:
      'the corrupted_* markers are still there: remove them by hand or fix the permission, then run shardeck recover-corrupt --resume',
    start: 'the engine did not start: read its log and the service status, then run shardeck recover-corrupt --resume',
    wait: 'the node did not answer in time: read its log (path.logs); resuming starts it again and waits',
    allocation:
      'the node answers but the shard could not be explained: run shardeck explain by hand, then shardeck recover-corrupt --resume',
    reroute:
      'the stale-primary allocation was not accepted: read the answer above and shardeck explain, then run shardeck recover-corrupt --resume',
    verify: 'the shard is not back yet: watch shardeck status; shardeck recover-corrupt --resume checks again',
  };
  return advice[stepId] ?? 'run shardeck recover-corrupt --resume once the cause is fixed';
}

/** Before vs after: the loss CheckIndex predicted and the one counted. */
export function lossReport(p: RecoveryProgress): {
  docsBefore: number | null;
  docsAfter: number | null;
  lost: number | null;
  predictedLost: number | null;
} {
  const before = p.check?.totalDocs ?? null;
  const after = p.docsAfter ?? null;
  return {
    docsBefore: before,
    docsAfter: after,
    lost: before !== null && after !== null ? before - after : null,
    predictedLost: p.check?.lostDocs ?? null,
  };
}
