// Runners of the delete and force-merge wizard machines (domain/wizards/delete.ts, forcemerge.ts):
// the reads of services/delete-by-query.ts, the query file read from disk, and every request that
// changes something (the delete, rethrottle, cancel, the merge) through the Guard, once, never retried.
import fs from 'node:fs';
import { AFTER_DELETE } from '../domain/delete/plan';
import { taskIdOf } from '../domain/delete/task';
import { describeOutcome, type TargetOptions } from '../domain/mutation';
import { deleteMachine, type DeleteEffect, type DeleteEvent, type DeleteForm, type DeleteState } from '../domain/wizards/delete';
import { forcemergeMachine, type MergeEffect, type MergeEvent, type MergeState } from '../domain/wizards/forcemerge';
import { countMatching, followTask, mergeFacts, previewDelete, refreshIndex, retainingShards, waitForLeases } from './delete-by-query';
import { GuardRefusal, type Guard } from './guard';
import { performMutations, WizardSession } from './wizards';

export interface DeleteTuning extends TargetOptions {
  /** How often the task is read (ms). */
  followIntervalMs?: number;
  /** After how long without an answer the task is reported lost (ms). */
  lostAfterMs?: number;
  /** How long to wait for retention leases before a merge (ms). */
  leasesTimeoutMs?: number;
  /** How long after a merge the store sizes are read again (their cache lasts 10 s). */
  storeStatsMs?: number;
}

/** Sends one plan through the guard; a refusal or a failed request becomes a message, a task id the result. */
async function startTask(guard: Guard, effect: { plan: Parameters<Guard['execute']>[0]; confirmation: Parameters<Guard['execute']>[1] }, opts: TargetOptions, what: string): Promise<{ task: string } | { message: string }> {
  try {
    const out = await guard.execute(effect.plan, effect.confirmation, opts);
    const task = out.ok ? taskIdOf(out.body) : null;
    if (task) return { task };
    if (!out.ok) return { message: `the ${what}: ${describeOutcome(out)}` };
    return { message: `the ${what} was not accepted: no task id in the answer (not retried; see shardeck audit)` };
  } catch (e) {
    if (e instanceof GuardRefusal) return { message: e.message };
    throw e;
  }
}

export function deleteSession(guard: Guard, initial: Partial<DeleteForm> = {}, tuning: DeleteTuning = {}) {
  return new WizardSession<DeleteState, DeleteEvent, DeleteEffect>(deleteMachine(initial), async (f, send) => {
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
        const preview = await previewDelete(guard, f.target, f.query, f.pageSize);
        return send({ type: 'previewed', indices: res.indices, preview });
      }
      case 'samples': {
        const page = await previewDelete(guard, f.target, f.query, f.pageSize, f.from);
        return send({ type: 'samples', from: f.from, samples: page.samples });
      }
      case 'start': {
        const r = await startTask(guard, f, tuning, 'delete');
        return send('task' in r ? { type: 'started', task: r.task } : { type: 'notStarted', message: r.message });
      }
      case 'follow': {
        const done = await followTask(guard, f.task, (progress) => send({ type: 'progress', progress }), {
          intervalMs: tuning.followIntervalMs ?? 500,
          lostAfterMs: tuning.lostAfterMs,
        });
        return send(done.ok ? { type: 'finished', progress: done.progress } : { type: 'lost', message: done.lost, last: done.last });
      }
      case 'control': {
        const [result] = await performMutations(guard, { type: 'mutate', plans: [f.plan], confirmation: f.confirmation }, tuning);
        return send({ type: 'controlled', result });
      }
      case 'count':
        // refresh=true of the delete is skipped when the task is cancelled or fails: then refresh
        // (through the guard, with the delete's confirmation) so the count sees what was deleted.
        // A failed refresh is audited and not retried; the count is read all the same.
        if (f.refresh) await refreshIndex(guard, f.target, AFTER_DELETE, f.confirmation, tuning);
        return send({ type: 'counted', stillMatching: await countMatching(guard, f.target, f.query) });
    }
  });
}

export function forcemergeSession(guard: Guard, initialTarget = '', start = false, tuning: DeleteTuning = {}) {
  return new WizardSession<MergeState, MergeEvent, MergeEffect>(forcemergeMachine(initialTarget, start), async (f, send) => {
    if (f.type === 'inspect') {
      const res = await guard.resolveTarget(f.target, tuning);
      if (!res.ok) return send({ type: 'rejected', message: res.error });
      const facts = await mergeFacts(guard, res.indices);
      const retaining = facts.indices.some((i) => i.docsDeleted > 0) ? await retainingShards(guard, f.target) : 0;
      return send({ type: 'inspected', indices: res.indices, facts, retaining });
    }
    // The flush (commits the deletes), then reading only until the leases let them go, then the merge.
    if (f.flush) {
      const [flushed] = await performMutations(guard, { type: 'mutate', plans: [f.flush], confirmation: f.confirmation }, tuning);
      if (!flushed.ok) return send({ type: 'notStarted', message: `the flush before the merge failed: ${flushed.message}; the merge was not sent` });
    }
    if (f.waitForLeases) send({ type: 'leasesCleared', cleared: await waitForLeases(guard, f.target, tuning.leasesTimeoutMs ?? 60_000) });
    const r = await startTask(guard, f, tuning, 'merge');
    if (!('task' in r)) return send({ type: 'notStarted', message: r.message });
    send({ type: 'started', task: r.task });
    const done = await followTask(guard, r.task, () => {}, { intervalMs: tuning.followIntervalMs ?? 1000, lostAfterMs: tuning.lostAfterMs });
    if (!done.ok) return send({ type: 'lost', message: done.lost });
    // Store sizes are cached per shard for index.store.stats_refresh_interval (10 s), and the flush
    // already changed them a little (mergeFactsAfter's "changed" test would take that): read them
    // once the cache taken before the merge ended has expired.
    await new Promise((r) => setTimeout(r, tuning.storeStatsMs ?? 10_500));
    const after = await mergeFacts(guard, f.before.indices.map((i) => i.name));
    send({ type: 'merged', after, failures: done.progress.failures });
  });
}
