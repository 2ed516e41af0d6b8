// One change prepared by a command (no wizard screens of its own: cluster settings, whole indices,
// aliases), driven like a wizard session so the commands end through applyOnePlan: confirm ->
// `before` (a record that must exist before sending; when it cannot be written nothing is sent)
// -> each plan through the guard, in order -> `after` with the results.
import type { Confirmation } from '../domain/mutation/confirmation';
import type { MutationPlan } from '../domain/mutation/plan';
import type { TargetOptions } from '../domain/mutation/targets';
import type { PlanResult } from '../domain/wizards/machine';
import type { Guard } from './guard';
import { performMutations } from './wizards/session';

export interface OneChangeState {
  phase: 'review' | 'done' | 'failed';
  result?: PlanResult;
  message?: string;
}

export function oneChange(
  guard: Guard,
  plans: MutationPlan[],
  hooks: {
    /** Runs once confirmed, before anything is sent (told how the operator confirmed); a throw stops it, nothing sent. */
    before?: (confirmation: Confirmation) => Promise<void> | void;
    after?: (results: PlanResult[]) => Promise<void> | void;
    targets?: TargetOptions;
    /** What flags typed ahead for a destructive plan (--expect N ...): --yes alone never confirms data loss. */
    typedAhead?: string;
  } = {},
) {
  let state: OneChangeState = { phase: 'review' };
  let running: Promise<void> = Promise.resolve();
  const confirm = async (confirmation: Confirmation, given: Confirmation) => {
    try {
      await hooks.before?.(given);
    } catch (e) {
      state = { phase: 'failed', message: `${(e as Error).message}: nothing was sent` };
      return;
    }
    const results = await performMutations(guard, { type: 'mutate', plans, confirmation }, hooks.targets);
    await hooks.after?.(results);
    const last = results[results.length - 1];
    const ok = results.length === plans.length && results.every((r) => r.ok);
    state = { phase: ok ? 'done' : 'failed', result: last, message: last?.message };
  };
  return {
    getState: () => state,
    send(e: { type: 'confirm'; confirmation: Confirmation }): void {
      const c = e.confirmation;
      running = confirm(c.by === 'yes-flag' && hooks.typedAhead !== undefined ? { by: 'yes-flag', text: hooks.typedAhead } : c, c);
    },
    async idle(): Promise<OneChangeState> {
      await running;
      return state;
    },
  };
}
