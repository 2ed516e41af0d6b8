// The engine wizard (service start/stop/restart/status, plugins list/install/remove) as a pure
// machine. `shardeck service` and `shardeck plugin` drive it with one action; the console opens it
// on the Nodes pane as a menu of the same actions. A change is shown with its exact commands and
// runs once confirmed (the node's name typed for stop and restart, a key otherwise); after a plugin
// change it offers the restart (r), which is the same service flow.
import { editLine, type LineEdit } from '../console/line-edit';
import type { Confirmation, ConfirmationNeed } from '../mutation/confirmation';
import type { PluginVerb, ServiceVerb } from '../host/engine';
import { stay, type Machine, type Step } from './machine';

export type EngineAction = { kind: 'service'; verb: ServiceVerb } | { kind: 'plugin'; verb: PluginVerb; arg?: string };

/** Why nothing was run: read-only mode, a checklist holding the node, bad input, or the host. */
export type EngineRefusal = 'read-only' | 'hold' | 'input' | 'host' | 'unconfirmed';

export interface EngineResult {
  ok: boolean;
  lines: string[];
  restartNeeded?: boolean;
  /** What --json prints beyond the common fields. */
  data?: Record<string, unknown>;
  refused?: EngineRefusal;
}

export type EnginePhase = 'loading' | 'menu' | 'input' | 'asking' | 'running' | 'done' | 'failed' | 'cancelled';

export interface EngineWizardState {
  phase: EnginePhase;
  action?: EngineAction;
  /** The engine as the menu shows it: node, service, plugins. */
  info: string[];
  plugins: string[];
  readOnly: boolean;
  /** The plugin zip, name or URL being typed (install) or the name (remove). */
  input: string;
  commands: string[];
  summary?: string;
  need?: ConfirmationNeed;
  typed: string;
  output: string[];
  result?: EngineResult;
  message?: string;
}

export type EngineWizardEvent =
  | { type: 'loaded'; info: string[]; plugins: string[]; readOnly: boolean }
  | { type: 'choose'; action: EngineAction }
  | { type: 'line'; edit: LineEdit }
  | { type: 'submit' }
  | { type: 'planned'; action: EngineAction; commands: string[]; summary: string; need: ConfirmationNeed }
  /** A read (status, list) or a refusal: the end. */
  | { type: 'finished'; result: EngineResult }
  /** The CLI gives its confirmation (--yes, --node-name, the terminal); the console's keys give none and the typed text counts. */
  | { type: 'confirm'; confirmation?: Confirmation }
  | { type: 'output'; chunk: string }
  | { type: 'cancel' }
  | { type: 'error'; message: string };

export type EngineWizardEffect =
  { type: 'load' } | { type: 'plan'; action: EngineAction } | { type: 'run'; action: EngineAction; confirmation: Confirmation };

const OUTPUT_LINES = 6;

/** The restart offered after a plugin change (and from the menu). */
export const RESTART: EngineAction = { kind: 'service', verb: 'restart' };

/** One line naming an action (titles, summaries). */
export function actionLabel(a: EngineAction): string {
  return a.kind === 'service' ? `service ${a.verb}` : `plugin ${a.verb}${a.arg ? ` ${a.arg}` : ''}`;
}

/** `initial`: the CLI's one action; none: the console's menu. */
export function engineMachine(initial?: EngineAction): Machine<EngineWizardState, EngineWizardEvent, EngineWizardEffect> {
  const blank: EngineWizardState = {
    phase: 'loading',
    info: [],
    plugins: [],
    readOnly: false,
    input: '',
    commands: [],
    typed: '',
    output: [],
  };
  const plan = (s: EngineWizardState, action: EngineAction): Step<EngineWizardState, EngineWizardEffect> => ({
    state: { ...s, phase: 'loading', action, commands: [], need: undefined, typed: '', output: [], result: undefined, message: undefined },
    effects: [{ type: 'plan', action }],
  });
  return {
    init: () => (initial ? plan({ ...blank, action: initial }, initial) : { state: blank, effects: [{ type: 'load' }] }),
    step(s, e) {
      switch (e.type) {
        case 'loaded':
          return stay({
            ...s,
            phase: s.phase === 'loading' && !s.action ? 'menu' : s.phase,
            info: e.info,
            plugins: e.plugins,
            readOnly: e.readOnly,
          });
        case 'choose': {
          // From the menu, or the restart offered at the end of a plugin change.
          const fromDone = s.phase === 'done' && s.result?.restartNeeded && e.action.kind === 'service' && e.action.verb === 'restart';
          if (s.phase !== 'menu' && !fromDone) return stay(s);
          if (e.action.kind === 'plugin' && (e.action.verb === 'install' || e.action.verb === 'remove') && e.action.arg === undefined)
            return stay({ ...s, phase: 'input', action: e.action, input: '' });
          return plan(s, e.action);
        }
        case 'line':
          if (s.phase === 'input') return stay({ ...s, input: editLine(s.input, e.edit) });
          if (s.phase === 'asking' && s.need?.kind === 'type') return stay({ ...s, typed: editLine(s.typed, e.edit) });
          return stay(s);
        case 'submit':
          if (s.phase !== 'input' || s.action?.kind !== 'plugin' || !s.input.trim()) return stay(s);
          return plan(s, { ...s.action, arg: s.input.trim() });
        case 'planned':
          return stay({ ...s, phase: 'asking', action: e.action, commands: e.commands, summary: e.summary, need: e.need, typed: '' });
        case 'finished':
          return stay({ ...s, phase: 'done', result: e.result });
        case 'confirm': {
          if (s.phase !== 'asking' || !s.need || !s.action) return stay(s);
          let confirmation = e.confirmation;
          if (!confirmation) {
            if (s.need.kind === 'type' && s.typed !== s.need.expected) return stay(s);
            confirmation = s.need.kind === 'type' ? { by: 'typed', text: s.typed } : { by: 'key' };
          }
          return { state: { ...s, phase: 'running', output: [] }, effects: [{ type: 'run', action: s.action, confirmation }] };
        }
        case 'output':
          return stay({ ...s, output: [...s.output, ...e.chunk.replace(/\n$/, '').split('\n')].slice(-OUTPUT_LINES) });
        case 'cancel':
          // A running command cannot be called back; a question or a typed name goes back to the menu (console) or ends (CLI).
          // While reading (never a change: the run is 'running') Esc ends the wizard.
          if (s.phase === 'running') return stay(s);
          if ((s.phase === 'asking' || s.phase === 'input' || s.phase === 'done') && !initial)
            return stay({ ...s, phase: 'menu', action: undefined, result: undefined, typed: '', input: '' });
          return stay({ ...s, phase: 'cancelled' });
        case 'error':
          return stay({ ...s, phase: 'failed', message: e.message });
      }
    },
  };
}

/** Esc closes the wizard now (the menu, a read under way, an end); else it goes back or waits. */
export function engineClosesOnEsc(s: EngineWizardState): boolean {
  return s.phase === 'menu' || s.phase === 'loading' || s.phase === 'failed' || s.phase === 'cancelled';
}
