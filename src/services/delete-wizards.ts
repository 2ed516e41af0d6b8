// Sessions of the delete and force-merge machines (domain/wizards/delete.ts, forcemerge.ts): the
// wizards and the CLI commands (commands/delete-by-query.ts, forcemerge.ts) drive these same
// sessions. Reads through the facade, the query file read from disk, and every request that
// changes something (the delete, rethrottle, cancel, refresh, flush, merge) through the Guard,
// once, never retried.
import fs from 'node:fs';
import type { EsApi } from '../cluster/api';
import { AFTER_DELETE } from '../domain/delete/plan';
import { taskIdOf } from '../domain/delete/task';
import { describeOutcome, type Applied, type Confirmation, type MutationPlan, type TargetOptions } from '../domain/mutation';
import { deleteMachine, type DeleteEffect, type DeleteEvent, type DeleteForm, type DeleteState } from '../domain/wizards/delete';
import { forcemergeMachine, type MergeEffect, type MergeEvent, type MergeState } from '../domain/wizards/forcemerge';
import { countLagNote, followTask, mergeFacts, mergeFactsAfter, previewDelete, refreshIndex, waitForLeases } from './delete-by-query';
import { GuardRefusal, type Guard, type MutationOutcome, type RefusalKind } from './guard';
import { performMutations, WizardSession } from './wizards';

export interface DeleteTuning extends TargetOptions {
  /** How often the task is read (ms). */
  followIntervalMs?: number;
  /** After how long without an answer the task is reported lost (ms). */
  lostAfterMs?: number;
  /** How long to wait for retention leases before a merge (ms). */
  leasesTimeoutMs?: number;
  /** How long after a merge the store sizes may still come from their cache (10 s), so are read again. */
  storeStatsMs?: number;
  /** Samples per preview page (the wizard's screen holds 4; the CLI prints 10). */
  samplePage?: number;
  /** A change went out but its outcome is missing from the audit log (the CLI says so on stderr). */
  onAuditWarning?: (warning: string) => void;
}

type NotSent = { message: string; applied?: Applied; refused?: RefusalKind };

/** Sends one plan through the guard: its outcome, or the guard's refusal (nothing was sent). */
async function sendOne(guard: Guard, plan: MutationPlan, confirmation: Confirmation, tuning: DeleteTuning): Promise<{ out: MutationOutcome } | { refusal: NotSent }> {
  try {
    const out = await guard.execute(plan, confirmation, tuning);
    if (out.auditWarning) tuning.onAuditWarning?.(out.auditWarning);
    return { out };
  } catch (e) {
    if (e instanceof GuardRefusal) return { refusal: { message: e.message, refused: e.kind } };
    throw e;
  }
}

/** A delete or merge sent as a task: its id, or why it did not start (and what the cluster did). */
async function startTask(guard: Guard, effect: { plan: MutationPlan; confirmation: Confirmation }, tuning: DeleteTuning, what: string): Promise<{ task: string } | NotSent> {
  const sent = await sendOne(guard, effect.plan, effect.confirmation, tuning);
  if ('refusal' in sent) return sent.refusal;
  const { out } = sent;
  const task = out.ok ? taskIdOf(out.body) : null;
  if (task) return { task };
  const message = out.ok ? `the ${what} was not accepted: no task id in the answer (not retried; see shardeck audit)` : `the ${what}: ${describeOutcome(out)}`;
  return { message, applied: out.applied };
}

export function deleteSession(es: EsApi, guard: Guard, initial: Partial<DeleteForm> = {}, tuning: DeleteTuning = {}) {
  return new WizardSession<DeleteState, DeleteEvent, DeleteEffect>(deleteMachine(initial, { pageSize: tuning.samplePage, target: tuning }), async (f, send) => {
    switch (f.type) {
      case 'readFile': {
        let text: string;
        try {
          text = fs.readFileSync(f.path, 'utf8');
        } catch (e) {
          return send({ type: 'rejected', message: `cannot read ${f.path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): check the path` });
        }
        return send({ type: 'fileRead', text });
      }
      case 'preview': {
        const res = await guard.resolveTarget(f.target, tuning);
        if (!res.ok) return send({ type: 'rejected', message: res.error });
        const preview = await previewDelete(es, f.target, f.query, f.pageSize);
        return send({ type: 'previewed', indices: res.indices, preview });
      }
      case 'samples': {
        const page = await previewDelete(es, f.target, f.query, f.pageSize, f.from);
        return send({ type: 'samples', from: f.from, samples: page.samples });
      }
      case 'start': {
        const r = await startTask(guard, f, tuning, 'delete');
        return send('task' in r ? { type: 'started', task: r.task } : { type: 'notStarted', ...r });
      }
      case 'follow': {
        const done = await followTask(es, f.task, (progress) => send({ type: 'progress', progress }), {
          intervalMs: tuning.followIntervalMs ?? 500,
          lostAfterMs: tuning.lostAfterMs,
        });
        return send(done.ok ? { type: 'finished', progress: done.progress } : { type: 'lost', message: done.lost, last: done.last });
      }
      case 'control': {
        const [result] = await performMutations(guard, { type: 'mutate', plans: [f.plan], confirmation: f.confirmation }, tuning);
        return send({ type: 'controlled', result });
      }
      case 'count': {
        // refresh=true of the delete is skipped when the task is cancelled or fails: then refresh
        // (through the guard, with the delete's confirmation) so the count sees what was deleted.
        // A failed refresh is audited and not retried; the count is read all the same, and says it may lag.
        const notRefreshed = f.refresh ? await refreshIndex(guard, f.target, AFTER_DELETE, f.confirmation, tuning) : null;
        const countLag = notRefreshed ? await countLagNote(es, f.target, notRefreshed) : undefined;
        return send({ type: 'counted', stillMatching: await es.count(f.target, f.query), ...(countLag ? { countLag } : {}) });
      }
    }
  });
}

export function forcemergeSession(es: EsApi, guard: Guard, initialTarget = '', start = false, tuning: DeleteTuning = {}) {
  return new WizardSession<MergeState, MergeEvent, MergeEffect>(forcemergeMachine(initialTarget, start, tuning), async (f, send) => {
    if (f.type === 'inspect') {
      const res = await guard.resolveTarget(f.target, tuning);
      if (!res.ok) return send({ type: 'rejected', message: res.error });
      const facts = await mergeFacts(es, res.indices);
      const retaining = facts.indices.some((i) => i.docsDeleted > 0) ? await es.retainingShards(f.target) : 0;
      return send({ type: 'inspected', indices: res.indices, facts, retaining });
    }
    // The flush (commits the deletes), then reading only until the leases let them go, then the merge.
    if (f.flush) {
      const flushed = await sendOne(guard, f.flush, f.confirmation, tuning);
      if ('refusal' in flushed) return send({ type: 'notStarted', ...flushed.refusal });
      if (flushed.out.applied !== 'yes')
        return send({ type: 'notStarted', message: `the flush before the merge: ${describeOutcome(flushed.out)}; nothing was merged (see shardeck audit)`, applied: flushed.out.applied });
    }
    if (f.waitForLeases) send({ type: 'leasesCleared', cleared: await waitForLeases(es, f.target, tuning.leasesTimeoutMs ?? 60_000) });
    // The sizes right before the merge (the flush changed them a little): the ones "after" must differ from.
    const baseline = f.flush ? await mergeFacts(es, f.before.indices.map((i) => i.name)) : f.before;
    const r = await startTask(guard, f, tuning, 'merge');
    if (!('task' in r)) return send({ type: 'notStarted', ...r });
    send({ type: 'started', task: r.task });
    const done = await followTask(es, r.task, () => {}, { intervalMs: tuning.followIntervalMs ?? 1000, lostAfterMs: tuning.lostAfterMs });
    if (!done.ok) return send({ type: 'lost', message: done.lost });
    const after = await mergeFactsAfter(es, baseline, f.before.indices.map((i) => i.name), tuning.storeStatsMs);
    send({ type: 'merged', after, failures: done.progress.failures });
  });
}
