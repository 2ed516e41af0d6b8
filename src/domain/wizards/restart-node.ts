// The rolling-restart wizard (the Nodes pane's key; `shardeck restart-node` is its CLI twin): the
// checks and the steps, the node's name typed to confirm, then each step as it runs. The steps
// themselves are domain/maintenance/restart-node.ts; the session runs them (services/wizards/restart-node.ts).
import { editLine, type LineEdit } from '../console/line-edit';
import type { Confirmation } from '../mutation/confirmation';
import { commonStep, go, stay, type CommonEvent, type Ended, type Machine, type Step } from './machine';

export interface RestartFacts {
  node: string;
  /** An unfinished restart goes on at this step (null: a new one). */
  resumeAt: string | null;
  warnings: string[];
  /** Each step as "id: what it does". */
  steps: string[];
}

export interface StepLine {
  id: string;
  phase: 'start' | 'done' | 'failed';
  text: string;
}

export type RestartWizardState =
  | { phase: 'loading' }
  | { phase: 'review'; facts: RestartFacts; typed: string; error?: string }
  | { phase: 'running'; facts: RestartFacts; log: StepLine[] }
  | { phase: 'done'; facts: RestartFacts; log: StepLine[]; ok: boolean; message: string }
  | Ended;

export type RestartWizardEvent =
  | CommonEvent
  | { type: 'loaded'; facts: RestartFacts }
  | { type: 'line'; edit: LineEdit }
  | { type: 'submit' }
  | { type: 'step'; line: StepLine }
  | { type: 'finished'; ok: boolean; message: string };

export type RestartWizardEffect = { type: 'load' } | { type: 'run'; confirmation: Confirmation };

export function restartWizardMachine(): Machine<RestartWizardState, RestartWizardEvent, RestartWizardEffect> {
  return {
    init: () => go({ phase: 'loading' }, { type: 'load' }),
    step(s, e): Step<RestartWizardState, RestartWizardEffect> {
      // Once running, Esc does not stop it half-way (a stopped engine must be started): the run ends on its own.
      if (s.phase === 'running' && e.type === 'cancel') return stay(s);
      const common = commonStep<RestartWizardState, RestartWizardEffect>(s, e);
      if (common) return common;
      switch (s.phase) {
        case 'loading':
          return e.type === 'loaded' ? stay({ phase: 'review', facts: e.facts, typed: '' }) : stay(s);
        case 'review':
          if (e.type === 'line') return stay({ ...s, typed: editLine(s.typed, e.edit), error: undefined });
          if (e.type === 'submit') {
            if (s.typed !== s.facts.node) return stay({ ...s, error: `type the node's name, ${s.facts.node}, to restart it` });
            return go({ phase: 'running', facts: s.facts, log: [] }, { type: 'run', confirmation: { by: 'typed', text: s.typed } });
          }
          return stay(s);
        case 'running':
          if (e.type === 'step') return stay({ ...s, log: [...s.log, e.line] });
          if (e.type === 'finished') return stay({ phase: 'done', facts: s.facts, log: s.log, ok: e.ok, message: e.message });
          return stay(s);
        default:
          return stay(s);
      }
    },
  };
}
