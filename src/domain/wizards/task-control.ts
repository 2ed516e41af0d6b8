// Cancel or rethrottle one task (the Tasks pane's x and t, `shardeck tasks cancel / rethrottle`):
// the task read first (GET _tasks/<id>), refused with the reason when it cannot be, the rate typed
// for a rethrottle, the preview, then one guarded request. A task that writes (by-query, reindex)
// stops half done when cancelled, so its id is typed to confirm (the plan's confirmText).
import type { TaskProgress } from '../delete/task';
import { editLine, type LineEdit } from '../console/line-edit';
import { confirmationNeeded, confirmationSatisfies, type Confirmation } from '../mutation/confirmation';
import type { MutationPlan } from '../mutation/plan';
import { taskControlRefusal, taskWrites } from '../panes/tasks';
import { cancelTaskPlan, parseRequestsPerSecond, rethrottlePlan } from './delete';
import { commonStep, go, stay, type CommonEvent, type Ended, type Machine, type MutateEffect, type PlanResult, type Step } from './machine';

export type TaskVerb = 'cancel' | 'rethrottle';

/** A rate is digits, a decimal point, or -1 / "u" for no throttle. */
const RATE_CHARS = /^[0-9.\-u]$/;

export type TaskControlState =
  | { phase: 'loading'; verb: TaskVerb; id: string; input: string }
  /** Refused before anything was asked: finished, being cancelled, not cancellable, takes no rate. */
  | { phase: 'nothing'; verb: TaskVerb; id: string; task: TaskProgress; message: string }
  /** Rethrottle: the new rate being typed. */
  | { phase: 'review'; verb: TaskVerb; id: string; task: TaskProgress; input: string; error?: string }
  | {
      phase: 'confirming';
      verb: TaskVerb;
      id: string;
      task: TaskProgress;
      input: string;
      plan: MutationPlan;
      typed: string;
      error?: string;
    }
  | { phase: 'applying'; verb: TaskVerb; id: string; task: TaskProgress; plan: MutationPlan }
  /** after: the task read once more (the new rate; what a cancelled task had done by then), when it could be. */
  | { phase: 'done'; verb: TaskVerb; id: string; task: TaskProgress; plan: MutationPlan; result: PlanResult; after?: TaskProgress }
  | Ended;

export type TaskControlEvent =
  | CommonEvent
  | { type: 'loaded'; task: TaskProgress }
  | { type: 'line'; edit: LineEdit }
  | { type: 'submit' }
  | { type: 'back' }
  /** The console's y (a key), or the CLI's --yes / terminal answer; a typed id comes as line edits and submit. */
  | { type: 'confirm'; confirmation: Confirmation }
  | { type: 'applied'; results: PlanResult[]; after?: TaskProgress };

export type TaskControlEffect = { type: 'load'; id: string } | MutateEffect;

/** The request for this task: cancel (destructive when the task writes) or rethrottle to `rate`. */
export function taskControlPlan(verb: TaskVerb, task: Pick<TaskProgress, 'id' | 'action'>, rate = -1): MutationPlan {
  return verb === 'cancel'
    ? cancelTaskPlan(task.id, { action: task.action, writes: taskWrites(task.action) })
    : rethrottlePlan(task.id, rate, task.action);
}

export function taskControlMachine(
  verb: TaskVerb,
  id: string,
  rateInput = '',
): Machine<TaskControlState, TaskControlEvent, TaskControlEffect> {
  const confirming = (s: { task: TaskProgress; input: string }, plan: MutationPlan): TaskControlState => ({
    phase: 'confirming',
    verb,
    id,
    task: s.task,
    input: s.input,
    plan,
    typed: '',
  });
  const send = (s: { task: TaskProgress; plan: MutationPlan }, confirmation: Confirmation): Step<TaskControlState, TaskControlEffect> =>
    go({ phase: 'applying', verb, id, task: s.task, plan: s.plan }, { type: 'mutate', plans: [s.plan], confirmation });
  return {
    init: () => go({ phase: 'loading', verb, id, input: rateInput }, { type: 'load', id }),
    step(s, e): Step<TaskControlState, TaskControlEffect> {
      const common = commonStep<TaskControlState, TaskControlEffect>(s, e);
      if (common) return common;
      switch (s.phase) {
        case 'loading': {
          if (e.type !== 'loaded') return stay(s);
          const refusal = taskControlRefusal(e.task, verb);
          if (refusal) return stay({ phase: 'nothing', verb, id, task: e.task, message: refusal });
          if (verb === 'cancel') return stay(confirming({ task: e.task, input: s.input }, taskControlPlan(verb, e.task)));
          return stay({ phase: 'review', verb, id, task: e.task, input: s.input });
        }
        case 'review':
          if (e.type === 'line') return stay({ ...s, input: editLine(s.input, e.edit, RATE_CHARS), error: undefined });
          if (e.type === 'submit') {
            const rate = parseRequestsPerSecond(s.input);
            if (!rate.ok) return stay({ ...s, error: rate.error });
            return stay(confirming(s, taskControlPlan(verb, s.task, rate.value)));
          }
          return stay(s);
        case 'confirming': {
          const need = confirmationNeeded(s.plan);
          if (need.kind === 'type' && e.type === 'line') return stay({ ...s, typed: editLine(s.typed, e.edit), error: undefined });
          // Backspace on a key-confirmed rethrottle goes back to the rate; Esc (cancel) closes.
          if (e.type === 'back' || (need.kind === 'key' && e.type === 'line' && e.edit.type === 'erase'))
            return verb === 'rethrottle' ? stay({ phase: 'review', verb, id, task: s.task, input: s.input }) : stay(s);
          if (e.type === 'submit' && need.kind === 'type') {
            const typed: Confirmation = { by: 'typed', text: s.typed };
            if (!confirmationSatisfies(s.plan, typed)) return stay({ ...s, error: `type the task's number ${need.expected} exactly` });
            return send(s, typed);
          }
          if (e.type === 'confirm') {
            // A key cannot stand for a typed id: the console's y is ignored on a writing task's cancel.
            if (!confirmationSatisfies(s.plan, e.confirmation))
              return stay({ ...s, error: `type the task's number ${need.kind === 'type' ? need.expected : ''} exactly` });
            return send(s, e.confirmation);
          }
          return stay(s);
        }
        case 'applying':
          if (e.type === 'applied') {
            const r = e.results[0];
            return stay(
              r
                ? { phase: 'done', verb, id, task: s.task, plan: s.plan, result: r, ...(e.after ? { after: e.after } : {}) }
                : { phase: 'failed', message: 'nothing was sent' },
            );
          }
          return stay(s);
        default:
          return stay(s);
      }
    },
  };
}
