// Scroll-context wizard: open scroll contexts per node against search.max_open_scroll_context,
// and the seed's request that raises the limit (persistent and transient).
import { DIGITS, editLine, type LineEdit } from '../console/line-edit';
import type { Confirmation } from '../mutation/confirmation';
import type { MutationPlan } from '../mutation/plan';
import type { NodeSearchStats } from '../types';
import { commonStep, go, stay, type CommonEvent, type Ended, type Machine, type MutateEffect, type PlanResult, type Step } from './machine';

export const SCROLL_SETTING = 'search.max_open_scroll_context';

export const KEEP_ALIVE_NOTE =
  'client-side alternative: give scroll/scan calls a keep-alive of 1m instead of the default 5m, so contexts close sooner';

export interface ScrollFacts {
  nodes: NodeSearchStats[];
  limit: number;
}

export interface ScrollNodeRow {
  name: string;
  open: number;
  limit: number;
  /** At the limit: the next scroll on this node fails. */
  full: boolean;
}

/** The limit applies per node. */
export function scrollRows(f: ScrollFacts): ScrollNodeRow[] {
  return f.nodes.map((n) => ({ name: n.name, open: n.scrollCurrent, limit: f.limit, full: n.scrollCurrent >= f.limit }));
}

/** The largest value of an int setting (Java's Integer.MAX_VALUE). */
export const ES_INT_MAX = 2_147_483_647;

export function parseScrollLimit(text: string): { ok: true; value: number } | { ok: false; error: string } {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) < 1)
    return { ok: false, error: `scroll limit "${text}" is not a whole number of 1 or more: give e.g. 1000 (the default is 500)` };
  // The setting is a Java int: Elasticsearch rejects anything larger.
  if (Number(t) > ES_INT_MAX)
    return { ok: false, error: `scroll limit "${text}" is more than Elasticsearch accepts (at most ${ES_INT_MAX}): give e.g. 1000` };
  return { ok: true, value: Number(t) };
}

export function scrollLimitPlan(limit: number, current: number): MutationPlan {
  const setting = { [SCROLL_SETTING]: limit };
  return {
    method: 'PUT',
    path: '/_cluster/settings',
    querystring: {},
    body: { persistent: setting, transient: setting },
    risk: 'reversible',
    target: SCROLL_SETTING,
    summary: `set ${SCROLL_SETTING} from ${current} to ${limit} (persistent, and transient as the platform's document shows)`,
    verify: {
      // Nested, not flat_settings: filter_path cannot match dotted flat keys.
      path: '/_cluster/settings',
      querystring: { filter_path: `*.${SCROLL_SETTING}` },
      check(body) {
        const b = (body ?? {}) as Record<string, { search?: { max_open_scroll_context?: string } }>;
        const seen = [b.persistent?.search?.max_open_scroll_context, b.transient?.search?.max_open_scroll_context];
        return seen.every((v) => Number(v) === limit)
          ? { ok: true, message: `${SCROLL_SETTING} is ${limit} on every node` }
          : { ok: false, message: `${SCROLL_SETTING} reads back as persistent ${seen[0] ?? 'unset'}, transient ${seen[1] ?? 'unset'}` };
      },
    },
  };
}

export type ScrollState =
  | { phase: 'loading'; input: string }
  | { phase: 'review'; facts: ScrollFacts; input: string; error?: string }
  | { phase: 'confirming'; facts: ScrollFacts; input: string; plan: MutationPlan }
  | { phase: 'applying'; facts: ScrollFacts; plan: MutationPlan }
  | { phase: 'done'; facts: ScrollFacts; result: PlanResult }
  | Ended;

export type ScrollEvent =
  | CommonEvent
  | { type: 'loaded'; facts: ScrollFacts }
  | { type: 'edit'; value: string }
  /** A key typed into the limit (digits only); Backspace on the review goes back to it. */
  | { type: 'line'; edit: LineEdit }
  | { type: 'submit' }
  | { type: 'back' }
  | { type: 'confirm'; confirmation: Confirmation }
  | { type: 'applied'; results: PlanResult[] };

export type ScrollEffect = { type: 'load' } | MutateEffect;

export function scrollMachine(initialInput = ''): Machine<ScrollState, ScrollEvent, ScrollEffect> {
  return {
    init: () => go({ phase: 'loading', input: initialInput }, { type: 'load' }),
    step(s, e): Step<ScrollState, ScrollEffect> {
      const common = commonStep<ScrollState, ScrollEffect>(s, e);
      if (common) return common;
      switch (s.phase) {
        case 'loading':
          return e.type === 'loaded' ? stay({ phase: 'review', facts: e.facts, input: s.input }) : stay(s);
        case 'review':
          if (e.type === 'edit') return stay({ ...s, input: e.value, error: undefined });
          if (e.type === 'line') {
            const input = editLine(s.input, e.edit, DIGITS);
            return input === s.input && e.edit.type === 'insert' ? stay(s) : stay({ ...s, input, error: undefined });
          }
          if (e.type === 'submit') {
            const n = parseScrollLimit(s.input);
            if (!n.ok) return stay({ ...s, error: n.error });
            return stay({ phase: 'confirming', facts: s.facts, input: s.input, plan: scrollLimitPlan(n.value, s.facts.limit) });
          }
          return stay(s);
        case 'confirming':
          if (e.type === 'back' || (e.type === 'line' && e.edit.type === 'erase'))
            return stay({ phase: 'review', facts: s.facts, input: s.input });
          if (e.type === 'confirm')
            return go(
              { phase: 'applying', facts: s.facts, plan: s.plan },
              { type: 'mutate', plans: [s.plan], confirmation: e.confirmation },
            );
          return stay(s);
        case 'applying':
          if (e.type === 'applied')
            return stay(
              e.results[0].ok
                ? { phase: 'done', facts: s.facts, result: e.results[0] }
                : { phase: 'failed', message: e.results[0].message },
            );
          return stay(s);
        default:
          return stay(s);
      }
    },
  };
}
