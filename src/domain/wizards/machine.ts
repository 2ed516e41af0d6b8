// A wizard is a pure machine: (state, event) -> state + effects. Runners in services/wizards/
// perform the effects with real calls and send the results back as events; Ink components only
// render the state and send the operator's events. The CLI twins drive the same machines.
import type { Applied } from '../mutation/audit';
import type { Confirmation } from '../mutation/confirmation';
import type { MutationPlan } from '../mutation/plan';

export interface Step<S, F> {
  state: S;
  effects: F[];
}

export interface Machine<S, E, F> {
  init(): Step<S, F>;
  step(state: S, event: E): Step<S, F>;
}

/** Events every machine understands: the operator cancels, a runner reports an unexpected failure. */
export type CommonEvent = { type: 'cancel' } | { type: 'error'; message: string };

/** How every machine can end besides success. */
export type Ended = { phase: 'failed'; message: string } | { phase: 'cancelled' };

/**
 * cancel and error, the same in every machine: cancel is ignored while a request is out (it
 * cannot be called back), an unexpected runner failure ends the wizard. Null for other events.
 */
export function commonStep<S extends { phase: string }, F>(s: S, e: { type: string; message?: string }): Step<S | Ended, F> | null {
  if (e.type === 'cancel') return stay(s.phase === 'applying' || s.phase === 'watching' ? s : { phase: 'cancelled' });
  if (e.type === 'error')
    return stay({ phase: 'failed', message: s.phase === 'watching' ? watchLostMessage(e.message) : (e.message ?? 'failed') });
  return null;
}

/**
 * A read failing while the wizard watches the cluster settle (the node restarting): the change
 * was already sent and answered, so the sentence says so and that it was not resent; else the
 * operator sees only "nothing listens at ..." and may run it again.
 */
export function watchLostMessage(reason = 'no answer'): string {
  return `the change was applied (above) and is not resent; then the cluster stopped answering while it was watched (${reason}): the node may be restarting. Watch it settle on the Health pane (or shardeck status)`;
}

/** The effect every machine ends with: send these plans through the guard, in order. */
export interface MutateEffect {
  type: 'mutate';
  plans: MutationPlan[];
  confirmation: Confirmation;
}

/** What one plan did, as a wizard reports it. */
export interface PlanResult {
  summary: string;
  /** The change is on the cluster (answered success, or read back after no answer). */
  ok: boolean;
  /** yes / no / unknown: what the cluster did, also when it did not answer (absent: refused, nothing sent). */
  applied?: Applied;
  message: string;
  verified?: { ok: boolean; message: string };
  /** The change went out but its outcome is missing from the audit log (the guard's warning). */
  auditWarning?: string;
}

export function stay<S, F>(state: S): Step<S, F> {
  return { state, effects: [] };
}

export function go<S, F>(state: S, ...effects: F[]): Step<S, F> {
  return { state, effects };
}

/** Moves the cursor of a form to the next (1) or previous (-1) field. */
export type FocusEvent = { type: 'focus'; by: 1 | -1 };

/** The focused field of a form, kept on every state that carries the form (a form shown again after a refusal keeps it). */
export interface Focus<Field extends string> {
  focus?: Field;
}

/**
 * A form machine with field focus: focus events move it round `fields` (those `shown` in this
 * state: a field hidden by a choice is not visited); `line` and `change` events (editing text,
 * changing a choice) reach `m` with the focused field filled in.
 */
export function withFocus<S extends object, E extends { type: string }, F, Field extends string>(
  m: Machine<S, E, F>,
  allFields: readonly Field[],
  first: Field,
  shown: (s: S) => readonly Field[] = () => allFields,
): Machine<S & Focus<Field>, E | FocusEvent, F> {
  const keep = (focus: Field, next: Step<S, F>): Step<S & Focus<Field>, F> => ({
    state: 'form' in next.state ? { ...next.state, focus } : next.state,
    effects: next.effects,
  });
  return {
    init: () => keep(first, m.init()),
    step(s, e) {
      const focus = s.focus ?? first;
      if (e.type === 'focus') {
        const fields = shown(s);
        const n = fields.length;
        const by = (e as FocusEvent).by;
        return stay({ ...s, focus: fields[(fields.indexOf(focus) + by + n) % n] });
      }
      const event = e.type === 'line' || e.type === 'change' ? ({ ...e, field: focus } as E) : (e as E);
      return keep(focus, m.step(s, event));
    },
  };
}

/** Phases a wizard ends in (any key closes it then), whichever machine it is. */
const ENDED = new Set(['done', 'failed', 'cancelled', 'nothing', 'finished', 'declined', 'none', 'error', 'stopped']);

export function isEnded(phase: string): boolean {
  return ENDED.has(phase);
}
