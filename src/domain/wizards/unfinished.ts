// Changes an earlier shardeck sent and never heard back from (killed between the audit's "sending"
// and the answer: domain/mutation/unfinished.ts): the console lists them at start and, confirmed,
// reads each back and records its outcome (Guard.settleUnfinished, the same code as the next change
// command's). Nothing is sent again: confirming only reads the cluster and writes the audit log.
import type { Confirmation } from '../mutation/confirmation';
import { commonStep, go, stay, type CommonEvent, type Ended, type Machine, type Step } from './machine';

export type UnfinishedState =
  | { phase: 'loading' }
  /** One line per unfinished change (the audit's own line for it); none: nothing to read back. */
  | { phase: 'review'; changes: string[] }
  | { phase: 'applying'; changes: string[] }
  /** What the read-back said, one line per change. */
  | { phase: 'done'; changes: string[]; said: string[] }
  | Ended;

export type UnfinishedEvent =
  | CommonEvent
  | { type: 'loaded'; changes: string[] }
  | { type: 'confirm'; confirmation: Confirmation }
  | { type: 'settled'; said: string[] };

export type UnfinishedEffect = { type: 'load' } | { type: 'settle' };

export function unfinishedMachine(): Machine<UnfinishedState, UnfinishedEvent, UnfinishedEffect> {
  return {
    init: () => go({ phase: 'loading' }, { type: 'load' }),
    step(s, e): Step<UnfinishedState, UnfinishedEffect> {
      const common = commonStep<UnfinishedState, UnfinishedEffect>(s, e);
      if (common) return common;
      if (s.phase === 'loading' && e.type === 'loaded') return stay({ phase: 'review', changes: e.changes });
      if (s.phase === 'review' && e.type === 'confirm' && s.changes.length)
        return go({ phase: 'applying', changes: s.changes }, { type: 'settle' });
      if (s.phase === 'applying' && e.type === 'settled') return stay({ phase: 'done', changes: s.changes, said: e.said });
      return stay(s);
    },
  };
}
