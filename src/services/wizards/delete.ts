// The delete-by-query wizard's session (domain/wizards/delete.ts), driven by the console's wizard and
// by commands/delete-by-query.ts alike: the preview reads, the query file read from disk, the delete
// sent once as a task through the Guard, followed, rethrottled or cancelled, and counted again.
import { readNamedFile } from '../../boundary/files';
import type { EsApi } from '../../cluster/api';
import { AFTER_DELETE } from '../../domain/delete/plan';
import { deleteMachine, type DeleteEffect, type DeleteEvent, type DeleteForm, type DeleteState } from '../../domain/wizards/delete';
import { countLagNote, followTask, previewDelete, refreshIndex, untilNotRed } from '../delete-by-query';
import type { Guard } from '../guard';
import { performMutations, startTask, WizardSession, type SendTuning } from './session';

export interface DeleteTuning extends SendTuning {
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
}

export function deleteSession(es: EsApi, guard: Guard, initial: Partial<DeleteForm> = {}, tuning: DeleteTuning = {}) {
  return new WizardSession<DeleteState, DeleteEvent, DeleteEffect>(
    deleteMachine(initial, { pageSize: tuning.samplePage, target: tuning }),
    async (f, send) => {
      switch (f.type) {
        case 'readFile': {
          let text: string;
          try {
            text = readNamedFile(f.path);
          } catch (e) {
            return send({
              type: 'rejected',
              message: `cannot read ${f.path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): check the path`,
            });
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
            timelineUrl: guard.previewConnection.url,
          });
          if (done.ok) return send({ type: 'finished', progress: done.progress });
          return send(done.gone ? { type: 'gone', last: done.last } : { type: 'lost', message: done.lost, last: done.last });
        }
        case 'control': {
          const [result] = await performMutations(guard, { type: 'mutate', plans: [f.plan], confirmation: f.confirmation }, tuning);
          return send({ type: 'controlled', result });
        }
        case 'count': {
          // After a restart the target's primaries may still be recovering: the refresh and count wait for them (or fail as before).
          if (f.afterRestart) await untilNotRed(es, f.target);
          // refresh=true of the delete is skipped when the task is cancelled or fails: then refresh
          // (through the guard, with the delete's confirmation) so the count sees what was deleted.
          // A failed refresh is audited and not retried; the count is read all the same, and says it may lag.
          const notRefreshed = f.refresh ? await refreshIndex(guard, f.target, AFTER_DELETE, f.confirmation, tuning) : null;
          const countLag = notRefreshed ? await countLagNote(es, f.target, notRefreshed) : undefined;
          return send({ type: 'counted', stillMatching: await es.count(f.target, f.query), ...(countLag ? { countLag } : {}) });
        }
      }
    },
  );
}

/** The console's way to open it: `services.open(deleteWizard, ...)` (services/wizards/index.ts). */
export const deleteWizard = (es: EsApi, guard: Guard, tuning: DeleteTuning, initial?: Partial<DeleteForm>) =>
  deleteSession(es, guard, initial, tuning);
