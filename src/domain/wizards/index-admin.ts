// Close, open or delete whole indices from the console (the Indices pane's c, u and X; the CLI's
// twin is `shardeck index close|open|delete`, the same preview: services/index-admin.ts). The names
// (the marked indices, or the highlighted one) are resolved and read when the wizard opens; the
// request names exactly those indices. Close and open confirm with a key; delete loses data, so the
// count is typed, then each project index's name, as the CLI's --expect and --confirm-project.
import { editLine, type LineEdit } from '../console/line-edit';
import { confirmationNeeded, confirmationSatisfies, type Confirmation } from '../mutation/confirmation';
import type { MutationPlan } from '../mutation/plan';
import { displayText } from '../text/display-text';
import { indexFactParts, type IndexAction, type IndexFacts } from '../maintenance/index-admin';
import { commonStep, go, stay, type CommonEvent, type Ended, type Machine, type MutateEffect, type PlanResult, type Step } from './machine';

/** What the preview found (services/index-admin.ts previewIndexAction, ok). */
export interface IndexAdminPreview {
  facts: IndexFacts[];
  already: string[];
  plan: MutationPlan | null;
  snapshotsRead: boolean;
}

export type IndexAdminState =
  | { phase: 'loading'; action: IndexAction; target: string }
  /** Refused before any plan (a name gone, a system index, the write index of an alias), or nothing to do. */
  | { phase: 'nothing'; action: IndexAction; target: string; message: string; preview?: IndexAdminPreview }
  | { phase: 'review'; action: IndexAction; target: string; preview: IndexAdminPreview; plan: MutationPlan; typed: string; error?: string }
  | { phase: 'applying'; action: IndexAction; target: string; preview: IndexAdminPreview; plan: MutationPlan }
  | { phase: 'done'; action: IndexAction; target: string; preview: IndexAdminPreview; result: PlanResult }
  | Ended;

export type IndexAdminEvent =
  | CommonEvent
  | { type: 'previewed'; preview: IndexAdminPreview }
  | { type: 'rejected'; message: string }
  | { type: 'line'; edit: LineEdit }
  | { type: 'submit' }
  /** The console's y: enough for close and open, never for a delete (its text is typed). */
  | { type: 'confirm'; confirmation: Confirmation }
  | { type: 'applied'; results: PlanResult[] };

export type IndexAdminEffect = { type: 'preview'; action: IndexAction; target: string } | MutateEffect;

const PAST: Record<IndexAction, string> = { close: 'closed', open: 'open', delete: 'deleted' };

/** What a delete asks to be typed, said in words: the count, then each project index's name. */
export function typedAsk(plan: MutationPlan): string {
  const need = confirmationNeeded(plan);
  if (need.kind !== 'type') return '';
  const [count, ...names] = need.expected.split(' ');
  return names.length
    ? `type ${count}, then the project ${names.length === 1 ? "index's name" : "indices' names"} (${names.join(' ')}), to delete: `
    : `type ${count} (the number of indices above) to delete them: `;
}

export function indexAdminMachine(action: IndexAction, target: string): Machine<IndexAdminState, IndexAdminEvent, IndexAdminEffect> {
  const send = (
    s: { target: string; preview: IndexAdminPreview; plan: MutationPlan },
    confirmation: Confirmation,
  ): Step<IndexAdminState, IndexAdminEffect> =>
    go(
      { phase: 'applying', action, target: s.target, preview: s.preview, plan: s.plan },
      { type: 'mutate', plans: [s.plan], confirmation },
    );
  return {
    init: () =>
      target
        ? go({ phase: 'loading', action, target }, { type: 'preview', action, target })
        : stay({ phase: 'nothing', action, target, message: 'no index is highlighted or marked: move to one in the Indices pane' }),
    step(s, e): Step<IndexAdminState, IndexAdminEffect> {
      const common = commonStep<IndexAdminState, IndexAdminEffect>(s, e);
      if (common) return common;
      switch (s.phase) {
        case 'loading':
          if (e.type === 'rejected') return stay({ phase: 'nothing', action, target, message: e.message });
          if (e.type !== 'previewed') return stay(s);
          if (!e.preview.plan)
            return stay({
              phase: 'nothing',
              action,
              target,
              preview: e.preview,
              message: `nothing to ${action}: ${e.preview.already.join(', ')} already ${PAST[action]}`,
            });
          return stay({ phase: 'review', action, target, preview: e.preview, plan: e.preview.plan, typed: '' });
        case 'review': {
          const need = confirmationNeeded(s.plan);
          if (need.kind === 'type' && e.type === 'line') return stay({ ...s, typed: editLine(s.typed, e.edit), error: undefined });
          if (need.kind === 'type' && e.type === 'submit') {
            const typed: Confirmation = { by: 'typed', text: s.typed.trim().replace(/\s+/g, ' ') };
            if (!confirmationSatisfies(s.plan, typed))
              return stay({ ...s, error: `not what was asked: type "${need.expected}" exactly (nothing was sent)` });
            return send(s, typed);
          }
          if (e.type === 'confirm') {
            // A key cannot stand for the typed count: y on a delete is said, not obeyed.
            if (!confirmationSatisfies(s.plan, e.confirmation))
              return stay({
                ...s,
                error: `a delete is confirmed by typing, not by a key: type "${need.kind === 'type' ? need.expected : ''}"`,
              });
            return send(s, e.confirmation);
          }
          return stay(s);
        }
        case 'applying':
          if (e.type !== 'applied') return stay(s);
          return stay(
            e.results[0]
              ? { phase: 'done', action, target, preview: s.preview, result: e.results[0] }
              : { phase: 'failed', message: 'nothing was sent' },
          );
        default:
          return stay(s);
      }
    },
  };
}

/** One index of the review on one line: its name and indexFactParts. */
export function indexFactText(f: IndexFacts): string {
  return [displayText(f.index), ...indexFactParts(f).map((p) => p.text)].join(' · ');
}
