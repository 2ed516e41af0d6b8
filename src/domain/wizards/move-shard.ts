// Move one started shard copy from the console (the Shards pane's m; its CLI twin is `shardeck
// move`, the same session: services/move-shard.ts). The nodes allocation explain answers YES for are
// offered (the NO deciders of the others shown), the chosen one checked with
// `_cluster/reroute?dry_run` first, then the move through the guard, followed with a bar until the
// copy is started on its new node (reads only: the move is never resent).
import type { MoveRef, MoveTargets, ShardCopy } from '../maintenance/move-shard';
import type { MutationPlan } from '../mutation/plan';
import { commonStep, go, stay, type CommonEvent, type Ended, type Machine, type PlanResult, type Step } from './machine';

export interface MoveOpened {
  index: string;
  shard: number;
  /** The node of the highlighted copy (which copy moves when the shard has several). */
  from: string;
}

interface Offer extends MoveOpened {
  copy: ShardCopy;
  targets: MoveTargets;
  /** The YES node under the cursor. */
  choice: number;
}

export type MoveState =
  | { phase: 'loading'; opened: MoveOpened }
  /** Refused before anything was asked (not started, no such shard), or no node accepts it. */
  | { phase: 'nothing'; opened: MoveOpened; message: string; targets?: MoveTargets }
  | ({ phase: 'choose'; error?: string } & Offer)
  | ({ phase: 'checking' } & Offer)
  | ({ phase: 'review'; ref: MoveRef; plan: MutationPlan } & Offer)
  | ({ phase: 'applying'; ref: MoveRef; plan: MutationPlan } & Offer)
  | ({ phase: 'following'; ref: MoveRef; result: PlanResult; percent: number | null } & Offer)
  | ({ phase: 'done'; ref: MoveRef; result: PlanResult; started: boolean } & Offer)
  | Ended;

export type MoveEvent =
  | CommonEvent
  | { type: 'offered'; copy: ShardCopy; targets: MoveTargets }
  | { type: 'rejected'; message: string }
  | { type: 'focus'; by: 1 | -1 }
  | { type: 'submit' }
  | { type: 'checked'; ref: MoveRef; plan: MutationPlan }
  | { type: 'back' }
  | { type: 'confirm' }
  | { type: 'applied'; results: PlanResult[] }
  | { type: 'progress'; percent: number | null }
  | { type: 'followed'; started: boolean };

export type MoveEffect =
  | { type: 'targets'; opened: MoveOpened }
  | { type: 'check'; opened: MoveOpened; to: string }
  | { type: 'mutate'; plans: MutationPlan[]; confirmation: { by: 'key' } }
  | { type: 'follow'; ref: MoveRef };

function offerOf(s: Offer): Offer {
  const { index, shard, from, copy, targets, choice } = s;
  return { index, shard, from, copy, targets, choice };
}

export function moveMachine(opened: MoveOpened): Machine<MoveState, MoveEvent, MoveEffect> {
  return {
    init: () => go({ phase: 'loading', opened }, { type: 'targets', opened }),
    step(s, e): Step<MoveState, MoveEffect> {
      // Once sent, Esc or a lost read ends the following, not the move: it goes on by itself and is never resent.
      if (s.phase === 'following' && (e.type === 'cancel' || e.type === 'error'))
        return stay({ phase: 'done', ...offerOf(s), ref: s.ref, result: s.result, started: false });
      const common = commonStep<MoveState, MoveEffect>(s, e);
      if (common) return common;
      switch (s.phase) {
        case 'loading':
          if (e.type === 'rejected') return stay({ phase: 'nothing', opened, message: e.message });
          if (e.type !== 'offered') return stay(s);
          if (!e.targets.yes.length)
            return stay({ phase: 'nothing', opened, targets: e.targets, message: 'no node accepts this copy now (the deciders below)' });
          return stay({ phase: 'choose', ...opened, copy: e.copy, targets: e.targets, choice: 0 });
        case 'choose':
          if (e.type === 'focus') {
            const n = s.targets.yes.length;
            return stay({ ...s, choice: (s.choice + e.by + n) % n, error: undefined });
          }
          if (e.type === 'submit') return go({ phase: 'checking', ...offerOf(s) }, { type: 'check', opened, to: s.targets.yes[s.choice] });
          return stay(s);
        case 'checking':
          if (e.type === 'rejected') return stay({ phase: 'choose', ...offerOf(s), error: e.message });
          if (e.type === 'checked') return stay({ phase: 'review', ...offerOf(s), ref: e.ref, plan: e.plan });
          return stay(s);
        case 'review':
          if (e.type === 'back') return stay({ phase: 'choose', ...offerOf(s) });
          if (e.type === 'confirm')
            return go(
              { phase: 'applying', ...offerOf(s), ref: s.ref, plan: s.plan },
              { type: 'mutate', plans: [s.plan], confirmation: { by: 'key' } },
            );
          return stay(s);
        case 'applying': {
          if (e.type !== 'applied') return stay(s);
          const r = e.results[0];
          if (!r) return stay({ phase: 'failed', message: 'nothing was sent' });
          if (!r.ok) return stay({ phase: 'done', ...offerOf(s), ref: s.ref, result: r, started: false });
          return go({ phase: 'following', ...offerOf(s), ref: s.ref, result: r, percent: null }, { type: 'follow', ref: s.ref });
        }
        case 'following':
          if (e.type === 'progress') return stay({ ...s, percent: e.percent });
          if (e.type === 'followed') return stay({ phase: 'done', ...offerOf(s), ref: s.ref, result: s.result, started: e.started });
          return stay(s);
        default:
          return stay(s);
      }
    },
  };
}
