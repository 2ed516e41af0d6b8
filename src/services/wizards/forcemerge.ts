// The force-merge wizard's session (domain/wizards/forcemerge.ts), driven by the console's wizard and
// by commands/forcemerge.ts alike: facts and space judged, the flush, the leases waited out, the
// merge sent once as a task through the Guard, followed, and the sizes read back.
import type { EsApi } from '../../cluster/api';
import { lacks } from '../../domain/capabilities';
import { describeOutcome } from '../../domain/mutation/audit';
import { forcemergeMachine, type MergeEffect, type MergeEvent, type MergeState } from '../../domain/wizards/forcemerge';
import { followTask, mergeFacts, mergeFactsAfter, untilNotRed, waitForLeases } from '../delete-by-query';
import type { Guard } from '../guard';
import { sendOne, startTask, WizardSession } from './session';
import type { DeleteTuning } from './delete';

export function forcemergeSession(es: EsApi, guard: Guard, initialTarget = '', start = false, tuning: DeleteTuning = {}) {
  return new WizardSession<MergeState, MergeEvent, MergeEffect>(forcemergeMachine(initialTarget, start, tuning), async (f, send) => {
    if (f.type === 'inspect') {
      const res = await guard.resolveTarget(f.target, tuning);
      if (!res.ok) return send({ type: 'rejected', message: res.error });
      const facts = await mergeFacts(es, res.indices);
      const retaining = facts.indices.some((i) => i.docsDeleted > 0) ? await es.retainingShards(f.target) : 0;
      // 8.0 cannot run it as a task (domain/capabilities.ts): the plan then waits in the request.
      const version = await es.version().catch(() => undefined);
      return send({ type: 'inspected', indices: res.indices, facts, retaining, asTask: !lacks(version, 'forcemergeTask') });
    }
    // The flush (commits the deletes), then reading only until the leases let them go, then the merge.
    if (f.flush) {
      const flushed = await sendOne(guard, f.flush, f.confirmation, tuning);
      if ('refusal' in flushed) return send({ type: 'notStarted', ...flushed.refusal });
      if (flushed.out.applied !== 'yes')
        return send({
          type: 'notStarted',
          message: `the flush before the merge: ${describeOutcome(flushed.out)}; nothing was merged (see shardeck audit)`,
          applied: flushed.out.applied,
        });
    }
    if (f.waitForLeases) send({ type: 'leasesCleared', cleared: await waitForLeases(es, f.target, tuning.leasesTimeoutMs ?? 60_000) });
    // The sizes right before the merge (the flush changed them a little): the ones "after" must differ from.
    const baseline = f.flush
      ? await mergeFacts(
          es,
          f.before.indices.map((i) => i.name),
        )
      : f.before;
    let failures: string[];
    if (f.plan.querystring.wait_for_completion === 'false') {
      const r = await startTask(guard, f, tuning, 'merge');
      if (!('task' in r)) return send({ type: 'notStarted', ...r });
      send({ type: 'started', task: r.task });
      const done = await followTask(es, r.task, () => {}, {
        intervalMs: tuning.followIntervalMs ?? 1000,
        lostAfterMs: tuning.lostAfterMs,
        timelineUrl: guard.previewConnection.url,
      });
      if (!done.ok && done.gone) {
        // Died with its node: what it merged is read back once the indices answer (like a gone delete's count).
        await untilNotRed(es, f.target);
        return send({
          type: 'gone',
          after: await mergeFacts(
            es,
            f.before.indices.map((i) => i.name),
          ),
        });
      }
      if (!done.ok) return send({ type: 'lost', message: done.lost });
      failures = done.progress.failures;
    } else {
      // No task (8.0): the answer comes when the merge is done, with its shard failures.
      const sent = await sendOne(guard, f.plan, f.confirmation, tuning);
      if ('refusal' in sent) return send({ type: 'notStarted', ...sent.refusal });
      if (!sent.out.ok) return send({ type: 'notStarted', message: `the merge: ${describeOutcome(sent.out)}`, applied: sent.out.applied });
      failures = ((sent.out.body as { _shards?: { failures?: { reason?: { reason?: string } }[] } })?._shards?.failures ?? []).map((x) =>
        String(x.reason?.reason ?? 'shard failure'),
      );
    }
    const after = await mergeFactsAfter(
      es,
      baseline,
      f.before.indices.map((i) => i.name),
      tuning.storeStatsMs,
    );
    send({ type: 'merged', after, failures });
  });
}

/** The console's way to open it: `services.open(forcemergeWizard, ...)` (services/wizards/index.ts). */
/** `start`: inspect the target at once (offered after a delete). */
export const forcemergeWizard = (es: EsApi, guard: Guard, tuning: DeleteTuning, target?: string, start?: boolean) =>
  forcemergeSession(es, guard, target, start, tuning);
