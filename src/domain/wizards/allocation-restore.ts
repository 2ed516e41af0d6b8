// Putting back the allocation settings shardeck changed and did not restore (domain/maintenance/allocation-limits.ts):
// what is left, the one guarded request that restores it, its read-back. Opened by the console at
// start when something is left, and by its key on the Health pane.
import type { Confirmation } from '../mutation/confirmation';
import type { MutationPlan } from '../mutation/plan';
import { commonStep, go, stay, type CommonEvent, type Ended, type Machine, type MutateEffect, type PlanResult, type Step } from './machine';

export interface LeftFacts {
  /** One line: what shardeck left, since when (null: nothing is left). */
  message: string | null;
  plan: MutationPlan | null;
}

export type AllocationRestoreState =
  | { phase: 'loading' }
  | { phase: 'review'; facts: LeftFacts }
  | { phase: 'applying'; facts: LeftFacts }
  | { phase: 'done'; facts: LeftFacts; result: PlanResult }
  | Ended;

export type AllocationRestoreEvent =
  | CommonEvent
  | { type: 'loaded'; facts: LeftFacts }
  | { type: 'confirm'; confirmation: Confirmation }
  | { type: 'applied'; results: PlanResult[] };

export type AllocationRestoreEffect = { type: 'load' } | MutateEffect;

export function allocationRestoreMachine(): Machine<AllocationRestoreState, AllocationRestoreEvent, AllocationRestoreEffect> {
  return {
    init: () => go({ phase: 'loading' }, { type: 'load' }),
    step(s, e): Step<AllocationRestoreState, AllocationRestoreEffect> {
      const common = commonStep<AllocationRestoreState, AllocationRestoreEffect>(s, e);
      if (common) return common;
      if (s.phase === 'loading' && e.type === 'loaded') return stay({ phase: 'review', facts: e.facts });
      if (s.phase === 'review' && e.type === 'confirm' && s.facts.plan)
        return go({ phase: 'applying', facts: s.facts }, { type: 'mutate', plans: [s.facts.plan], confirmation: e.confirmation });
      if (s.phase === 'applying' && e.type === 'applied') {
        const [r] = e.results;
        return r ? stay({ phase: 'done', facts: s.facts, result: r }) : stay({ phase: 'failed', message: 'nothing was sent' });
      }
      return stay(s);
    },
  };
}
