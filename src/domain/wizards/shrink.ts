// The right-sizing wizard (the Indices pane's key; `shardeck shrink` is its CLI twin): an unfinished
// run first (go on, or roll back while the original is there), else the form (the highlighted index
// or a pattern, the shard count with the divisors offered and the proposal filled in, a snapshot
// first), the plan per index, the index names typed (the original is deleted: data loss, typed even
// where --yes is given), then each step as it runs and the result in numbers. The steps are
// domain/shrink/; the session runs them (services/wizards/shrink.ts).
import { editLine, type LineEdit } from '../console/line-edit';
import type { Confirmation } from '../mutation/confirmation';
import type { AutoCreateValues } from '../shrink/auto-create';
import type { Capacity, ClusterFacts, IndexFacts, Mode } from '../shrink/plan';
import { buildReview, type ShrinkReview } from '../shrink/review';
import type { TemplateFacts } from '../shrink/template';
import {
  commonStep,
  go,
  stay,
  withFocus,
  type CommonEvent,
  type Ended,
  type Focus,
  type FocusEvent,
  type Machine,
  type Step,
} from './machine';

export interface ShrinkForm {
  target: string;
  /** Empty: each index gets its proposal. */
  shards: string;
  snapshot: boolean;
  mode: Mode;
  /** The repository of the snapshot first (absent: the first registered). */
  repository?: string;
  /** The index template whose number_of_shards changes too (empty: no template is changed). */
  template: string;
}

export const SHRINK_FIELDS = ['target', 'shards', 'template', 'snapshot'] as const;
export type ShrinkField = (typeof SHRINK_FIELDS)[number];

/** What the highlighted index allows, shown under the form: its shards, size, the counts it can go to and the one proposed. */
export interface ShrinkHint {
  index: string;
  shards: number;
  primaryBytes: number;
  targets: number[];
  proposed: number | null;
}

export interface StepLine {
  index: string;
  step: string;
  phase: 'start' | 'done' | 'failed';
  text: string;
}

export interface UnfinishedRun {
  /** One line naming the index and the step (progress.ts unfinishedLine). */
  line: string;
  canRollBack: boolean;
  /** The names to type (the run's own). */
  confirmText: string;
}

export interface ShrinkReport {
  ok: boolean;
  message: string;
  mode: Mode;
  indices: { index: string; from: number; to: number; docsBefore: number | null; docsAfter: number | null; ms: number; outcome: string }[];
  shardsPerNode: { node: string; before: number; after: number }[];
  capacity?: { before: Capacity; after: Capacity };
  tookMs: number;
  /** The template change, when asked: its outcome and the platform's JSON to paste. */
  template?: { ok: boolean; message: string; platformJson: Record<string, unknown> };
}

type Phase =
  | { phase: 'loading'; form: ShrinkForm }
  | { phase: 'unfinished'; form: ShrinkForm; run: UnfinishedRun; typed: string; error?: string }
  | { phase: 'input'; form: ShrinkForm; hint?: ShrinkHint; error?: string; listing?: string[] }
  | { phase: 'inspecting'; form: ShrinkForm; hint?: ShrinkHint }
  | { phase: 'review'; form: ShrinkForm; hint?: ShrinkHint; review: ShrinkReview; typed: string; error?: string }
  | { phase: 'running'; what: 'run' | 'resume' | 'rollback'; log: StepLine[]; review?: ShrinkReview }
  | { phase: 'done'; what: 'run' | 'resume' | 'rollback'; log: StepLine[]; report: ShrinkReport }
  | Ended;

export type ShrinkState = Phase & Focus<ShrinkField>;

export type ShrinkEvent =
  | CommonEvent
  | FocusEvent
  | { type: 'loaded'; unfinished: UnfinishedRun | null }
  | { type: 'peeked'; hint: ShrinkHint | null }
  | { type: 'edit'; field: 'target' | 'shards' | 'template'; value: string }
  | { type: 'line'; edit: LineEdit; field?: ShrinkField }
  | { type: 'change'; field?: ShrinkField }
  | { type: 'submit'; now: number }
  | { type: 'rejected'; message: string; listing?: string[] }
  | {
      type: 'inspected';
      indices: IndexFacts[];
      cluster: ClusterFacts;
      autoCreate: AutoCreateValues;
      now: number;
      /** The template asked for (null: not there); absent when none is asked. */
      template?: TemplateFacts | null;
    }
  | { type: 'back' }
  /** On an unfinished run: go on with it, or roll it back (the names typed first). */
  | { type: 'resume' }
  | { type: 'rollback' }
  /** The CLI's confirmation (--yes with --accept-data-loss, or typed on its terminal): on the review, or on an unfinished run. */
  | { type: 'confirm'; confirmation: Confirmation; rollback?: boolean }
  | { type: 'step'; line: StepLine }
  | { type: 'finished'; report: ShrinkReport };

export type ShrinkEffect =
  | { type: 'load' }
  | { type: 'peek'; target: string }
  | { type: 'inspect'; form: ShrinkForm; to: number | null; now: number }
  | { type: 'run'; review: ShrinkReview; confirmation: Confirmation }
  | { type: 'resume'; confirmation: Confirmation; rollback: boolean };

/** "2" -> 2, "" -> null (the proposal); anything else a sentence. */
export function parseShardsField(text: string): { ok: true; value: number | null } | { ok: false; error: string } {
  const t = text.trim();
  if (t === '') return { ok: true, value: null };
  if (!/^\d+$/.test(t) || Number(t) < 1)
    return { ok: false, error: `shards "${text}" is not a whole number of 1 or more: give the count, or leave it empty for the proposal` };
  return { ok: true, value: Number(t) };
}

const BLANK: ShrinkForm = { target: '', shards: '', snapshot: true, mode: 'shrink', template: '' };

export function shrinkMachine(initial: Partial<ShrinkForm> = {}): Machine<ShrinkState, ShrinkEvent, ShrinkEffect> {
  return withFocus(phases(initial), SHRINK_FIELDS, initial.target ? 'shards' : 'target');
}

/** A confirmation the CLI brings: its text must be the names (--yes alone never confirms the delete of an original). */
function givenConfirmation(c: Confirmation, expected: string): Confirmation | string {
  return c.by !== 'key' && c.text === expected
    ? c
    : `the originals of ${expected} are deleted once copied: --yes needs --accept-data-loss ${expected} (or type it); nothing was sent`;
}

function typedConfirmation(typed: string, expected: string): Confirmation | string {
  return typed.trim() === expected
    ? { by: 'typed', text: expected }
    : `type ${expected} (the indices whose originals are deleted) to go on`;
}

function phases(initial: Partial<ShrinkForm>): Machine<Phase, ShrinkEvent, ShrinkEffect> {
  const form: ShrinkForm = { ...BLANK, ...initial };
  return {
    init: () => go({ phase: 'loading', form }, { type: 'load' }),
    step(s, e): Step<Phase, ShrinkEffect> {
      // Once running, Esc does not stop it half-way: the run ends on its own (a kill is resumable, a cancel would not be).
      if (s.phase === 'running' && e.type === 'cancel') return stay(s);
      const common = commonStep<Phase, ShrinkEffect>(s, e);
      if (common) return common;
      switch (s.phase) {
        case 'loading':
          if (e.type !== 'loaded') return stay(s);
          if (e.unfinished) return stay({ phase: 'unfinished', form: s.form, run: e.unfinished, typed: '' });
          return s.form.target.trim()
            ? go({ phase: 'input', form: s.form }, { type: 'peek', target: s.form.target.trim() })
            : stay({ phase: 'input', form: s.form });
        case 'unfinished': {
          if (e.type === 'line') return stay({ ...s, typed: editLine(s.typed, e.edit), error: undefined });
          if (e.type !== 'resume' && e.type !== 'rollback' && e.type !== 'confirm') return stay(s);
          const back = e.type === 'rollback' || (e.type === 'confirm' && e.rollback === true);
          if (back && !s.run.canRollBack)
            return stay({ ...s, error: 'the original was deleted: it can only go on (its copy holds the documents)' });
          const c =
            e.type === 'confirm' ? givenConfirmation(e.confirmation, s.run.confirmText) : typedConfirmation(s.typed, s.run.confirmText);
          if (typeof c === 'string') return stay({ ...s, error: c });
          const what = back ? 'rollback' : 'resume';
          return go({ phase: 'running', what, log: [] }, { type: 'resume', confirmation: c, rollback: what === 'rollback' });
        }
        case 'input':
          if (e.type === 'peeked') {
            if (!e.hint) return stay({ ...s, hint: undefined });
            const shards = s.form.shards || (e.hint.proposed !== null ? String(e.hint.proposed) : '');
            return stay({ ...s, hint: e.hint, form: { ...s.form, shards } });
          }
          if (e.type === 'edit') return stay({ phase: 'input', form: { ...s.form, [e.field]: e.value }, hint: s.hint });
          if (e.type === 'line' && (e.field === 'target' || e.field === 'shards' || e.field === 'template'))
            return stay({ phase: 'input', form: { ...s.form, [e.field]: editLine(s.form[e.field], e.edit) }, hint: s.hint });
          if (e.type === 'change' && e.field === 'snapshot')
            return stay({ phase: 'input', form: { ...s.form, snapshot: !s.form.snapshot }, hint: s.hint });
          if (e.type === 'submit') {
            if (!s.form.target.trim()) return stay({ ...s, error: 'no index given: name an index or a pattern such as service_v9_*' });
            const n = parseShardsField(s.form.shards);
            if (!n.ok) return stay({ ...s, error: n.error });
            return go({ phase: 'inspecting', form: s.form, hint: s.hint }, { type: 'inspect', form: s.form, to: n.value, now: e.now });
          }
          return stay(s);
        case 'inspecting':
          if (e.type === 'rejected') return stay({ phase: 'input', form: s.form, hint: s.hint, error: e.message, listing: e.listing });
          if (e.type === 'inspected') {
            const n = parseShardsField(s.form.shards);
            const r = buildReview(
              {
                mode: s.form.mode,
                to: n.ok ? n.value : null,
                snapshot: s.form.snapshot ? null : false,
                repository: s.form.repository ?? null,
                now: e.now,
              },
              e.indices,
              e.cluster,
              e.autoCreate,
              s.form.template.trim() ? { name: s.form.template.trim(), facts: e.template ?? null } : undefined,
            );
            if (!r.ok)
              return stay({
                phase: 'input',
                form: s.form,
                hint: s.hint,
                error: r.error,
                listing: r.listing ?? r.refusals?.map((x) => `${x.index}: ${x.reason}`),
              });
            return stay({ phase: 'review', form: s.form, hint: s.hint, review: r.review, typed: '' });
          }
          return stay(s);
        case 'review': {
          if (e.type === 'back') return stay({ phase: 'input', form: s.form, hint: s.hint });
          if (e.type === 'line') return stay({ ...s, typed: editLine(s.typed, e.edit), error: undefined });
          if (e.type !== 'submit' && e.type !== 'confirm') return stay(s);
          const c =
            e.type === 'confirm'
              ? givenConfirmation(e.confirmation, s.review.confirmText)
              : typedConfirmation(s.typed, s.review.confirmText);
          if (typeof c === 'string') return stay({ ...s, error: c });
          return go({ phase: 'running', what: 'run', log: [], review: s.review }, { type: 'run', review: s.review, confirmation: c });
        }
        case 'running':
          if (e.type === 'step') return stay({ ...s, log: [...s.log, e.line] });
          if (e.type === 'finished') return stay({ phase: 'done', what: s.what, log: s.log, report: e.report });
          return stay(s);
        default:
          return stay(s);
      }
    },
  };
}
