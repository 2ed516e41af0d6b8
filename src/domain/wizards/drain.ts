// The drain wizard (the Nodes pane's key; `shardeck drain` is its CLI twin): on the selected node,
// the change to the exclude list (drain, or undo when the node is drained already) previewed, y
// sends it through the guard, then a drain is followed until the node holds no shards, with what
// blocks the move. Esc while following only stops the following (the drain stays, recorded).
import type { Confirmation } from '../mutation/confirmation';
import type { MutationPlan } from '../mutation/plan';
import { go, stay, type CommonEvent, type Ended, type Machine, type PlanResult, type Step } from './machine';

export interface DrainFacts {
  node: string;
  undo: boolean;
  plan: MutationPlan;
  /** "node x: 5 shard copies left ..." when the wizard opened. */
  progress: string;
}

export type DrainWizardState =
  | { phase: 'loading' }
  | { phase: 'review'; facts: DrainFacts }
  | { phase: 'applying'; facts: DrainFacts }
  | { phase: 'following'; facts: DrainFacts; result: PlanResult; progress: string; blockers: string[] }
  | { phase: 'done'; facts: DrainFacts; result: PlanResult; progress: string; blockers: string[] }
  /** Nothing to change (already drained and followed, or refused): the message says why. */
  | { phase: 'nothing'; message: string }
  | Ended;

export type DrainWizardEvent =
  | CommonEvent
  | { type: 'loaded'; facts: DrainFacts }
  | { type: 'nothing'; message: string }
  | { type: 'confirm'; confirmation: Confirmation }
  | { type: 'applied'; result: PlanResult }
  | { type: 'progress'; progress: string; blockers: string[] }
  | { type: 'followed'; progress: string; blockers: string[] };

export type DrainWizardEffect = { type: 'load' } | { type: 'apply'; plan: MutationPlan; confirmation: Confirmation; follow: boolean };

export function drainWizardMachine(): Machine<DrainWizardState, DrainWizardEvent, DrainWizardEffect> {
  return {
    init: () => go({ phase: 'loading' }, { type: 'load' }),
    step(s, e): Step<DrainWizardState, DrainWizardEffect> {
      if (e.type === 'error') return stay({ phase: 'failed', message: e.message });
      if (e.type === 'cancel') {
        // The request cannot be called back; the following can stop (the drain stays, recorded).
        if (s.phase === 'applying') return stay(s);
        if (s.phase === 'following')
          return stay({ phase: 'done', facts: s.facts, result: s.result, progress: s.progress, blockers: s.blockers });
        return stay({ phase: 'cancelled' });
      }
      switch (s.phase) {
        case 'loading':
          if (e.type === 'loaded') return stay({ phase: 'review', facts: e.facts });
          if (e.type === 'nothing') return stay({ phase: 'nothing', message: e.message });
          return stay(s);
        case 'review':
          return e.type === 'confirm'
            ? go(
                { phase: 'applying', facts: s.facts },
                { type: 'apply', plan: s.facts.plan, confirmation: e.confirmation, follow: !s.facts.undo },
              )
            : stay(s);
        case 'applying':
          if (e.type !== 'applied') return stay(s);
          return e.result.ok && !s.facts.undo && e.result.verified?.ok !== false
            ? stay({ phase: 'following', facts: s.facts, result: e.result, progress: s.facts.progress, blockers: [] })
            : stay({ phase: 'done', facts: s.facts, result: e.result, progress: s.facts.progress, blockers: [] });
        case 'following':
          if (e.type === 'progress') return stay({ ...s, progress: e.progress, blockers: e.blockers });
          if (e.type === 'followed')
            return stay({ phase: 'done', facts: s.facts, result: s.result, progress: e.progress, blockers: e.blockers });
          return stay(s);
        default:
          return stay(s);
      }
    },
  };
}
