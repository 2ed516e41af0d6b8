// Cancel or rethrottle one task: the session behind the Tasks pane's x / t and `shardeck tasks
// cancel / rethrottle` (one workflow: the task read, the refusal, the plan, one guarded request).
import type { EsApi } from '../../cluster/api';
import {
  taskControlMachine,
  type TaskControlEffect,
  type TaskControlEvent,
  type TaskControlState,
  type TaskVerb,
} from '../../domain/wizards/task-control';
import type { Guard } from '../guard';
import { performMutations, WizardSession } from './session';

export function taskControlSession(es: EsApi, guard: Guard, verb: TaskVerb, id: string, rateInput = '') {
  return new WizardSession<TaskControlState, TaskControlEvent, TaskControlEffect>(
    taskControlMachine(verb, id, rateInput),
    async (f, send) => {
      if (f.type === 'load') send({ type: 'loaded', task: await es.task(f.id) });
      else {
        // Never retried: a cancel or a rate sent twice is not what the preview showed.
        const results = await performMutations(guard, f);
        // What it did: the task read once more (the new rate; what a cancelled task had done by then).
        const after = results[0]?.applied === 'yes' ? await es.task(id).catch(() => null) : null;
        send({ type: 'applied', results, ...(after ? { after } : {}) });
      }
    },
  );
}

/** The console's way to open it: `services.open(taskControlWizard, verb, id)`. */
export const taskControlWizard = (es: EsApi, guard: Guard, _tuning: unknown, verb: TaskVerb, id: string) =>
  taskControlSession(es, guard, verb, id);
