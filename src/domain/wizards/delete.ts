// Delete wizard (query before delete, seed rule 1): target -> which documents (older than, one
// source, a JSON body from a file) -> the same query counted and sampled -> the operator types the
// count -> the delete runs as a task capped at that count (max_docs) -> progress, rethrottle,
// cancel -> the query counted again -> report, and the force merge offered.
// The CLI twin is commands/delete-by-query.ts; both build the same plan (deleteByQueryPlan).
import {
  CONFLICTS_LINE,
  deleteByQueryPlan,
  deleteSkippedItsRefresh,
  type ConflictsPolicy,
  type DeletePreview,
  type SampleDoc,
} from '../delete/plan';
import {
  olderThanQuery,
  parseOlderThan,
  parseQueryBody,
  parseUntil,
  sourceQuery,
  untilQuery,
  type Parsed,
  type Query,
} from '../delete/query';
import { deleteReport, goneDeleteReport, type DeleteReport } from '../delete/report';
import { parseTask, type TaskProgress } from '../delete/task';
import type { Applied } from '../mutation/audit';
import type { Confirmation } from '../mutation/confirmation';
import type { MutationPlan } from '../mutation/plan';
import { checkIndexExpression, pinIndices, type TargetOptions } from '../mutation/targets';
import { DEFAULT_TEMPLATE_VERSION, projectIdOfIndex } from '../naming';
import { DIGITS, editLine, type LineEdit } from '../console/line-edit';
import { go, stay, withFocus, type CommonEvent, type Focus, type FocusEvent, type Machine, type PlanResult, type Step } from './machine';

/** Samples shown per page of the preview (the wizard must fit 80x24). */
export const SAMPLE_PAGE = 4;

export type QueryKind = 'olderThan' | 'until' | 'source' | 'file';
export const QUERY_KINDS: QueryKind[] = ['olderThan', 'until', 'source', 'file'];
export const QUERY_KIND_LABELS: Record<QueryKind, string> = {
  olderThan: 'modified_at older than',
  until: 'modified_at up to and including',
  source: 'documents of source',
  file: 'JSON body from file',
};

export interface DeleteForm {
  target: string;
  kind: QueryKind;
  /** The text of the chosen kind: an age or date, a source id, or a file path. */
  value: string;
  conflicts: ConflictsPolicy;
  /** Documents per second to start with (requests_per_second); empty for no throttle. */
  rate: string;
}

export interface QueryChoice {
  query: Query;
  described: string;
  /** The absolute instant an older-than input resolved to, shown before anything runs. */
  resolvedOlderThan?: string;
  /** The absolute instant an until input resolved to (inclusive), shown before anything runs. */
  resolvedUntil?: string;
}

export type PreviewFacts = DeletePreview;
export type { SampleDoc };

/** The platform project name behind an index (service_v9_<project>), when signed in and known. */
export function projectOfTarget(
  target: string,
  projects: Record<string, string> | undefined,
  templateVersion = DEFAULT_TEMPLATE_VERSION,
): string | undefined {
  if (!projects) return undefined;
  const id = projectIdOfIndex(target.trim(), templateVersion);
  return id === null ? undefined : projects[id];
}

/**
 * What the form asks for, as far as it can be known without a file: the older-than input resolved
 * against `now`, or the source query. A file is read by the runner and parsed by parseQueryBody.
 */
export function choiceOf(form: DeleteForm, now: number): Parsed<QueryChoice> | { ok: 'file'; path: string } {
  if (form.kind === 'olderThan') {
    const at = parseOlderThan(form.value, now);
    if (!at.ok) return { ok: false, error: at.error.replace('--older-than', 'older than') };
    return {
      ok: true,
      value: { query: olderThanQuery(at.value), described: `modified_at older than ${at.value}`, resolvedOlderThan: at.value },
    };
  }
  if (form.kind === 'until') {
    const at = parseUntil(form.value, now);
    if (!at.ok) return { ok: false, error: at.error.replace('--until', 'until') };
    return { ok: true, value: untilChoice(at.value) };
  }
  if (form.kind === 'source') {
    const q = sourceQuery(form.value.trim());
    if (!q.ok) return { ok: false, error: 'no source given: type a source id such as src-crm' };
    return { ok: true, value: { query: q.value, described: `documents of source ${form.value.trim()}` } };
  }
  if (form.value.trim() === '')
    return { ok: false, error: 'no file given: type the path of a JSON body such as {"query": {...}} (a logged query saved as-is)' };
  return { ok: 'file', path: form.value.trim() };
}

/** modified_at up to and including an instant (the seed's lte). */
export function untilChoice(iso: string): QueryChoice {
  return { query: untilQuery(iso), described: `modified_at up to and including ${iso}`, resolvedUntil: iso };
}

/** The body of a file as the query to run (only "query" is used; other keys are named). */
export function choiceOfFile(path: string, text: string): Parsed<QueryChoice> {
  const body = parseQueryBody(text, path);
  if (!body.ok) return body;
  const ignored = body.value.ignored.length ? ` (only "query" is used; ignored: ${body.value.ignored.join(', ')})` : '';
  return { ok: true, value: { query: body.value.query, described: `the query of ${path}${ignored}` } };
}

/**
 * The wizard's delete: the CLI's plan, sent only to the previewed indices, refreshed afterwards so
 * the count that follows sees it.
 */
export function wizardDeletePlan(
  target: string,
  indices: string[],
  query: Query,
  previewed: number,
  conflicts: ConflictsPolicy,
  requestsPerSecond = -1,
): MutationPlan {
  const plan = pinIndices(deleteByQueryPlan(target, query, previewed, conflicts, requestsPerSecond), target, indices);
  plan.querystring.refresh = 'true';
  // max_docs first, so the cap is the part of the body a narrow screen still shows.
  plan.body = { max_docs: previewed, query };
  return plan;
}

/** Java's Float.MAX_VALUE: the largest requests_per_second Elasticsearch reads. */
const FLOAT_MAX = 3.4028234663852886e38;

/** Parses a requests-per-second limit: a positive number, or "unlimited" / -1 (no throttle). */
export function parseRequestsPerSecond(text: string): Parsed<number> {
  const t = text.trim().toLowerCase();
  if (t === 'unlimited' || t === '-1' || t === 'u') return { ok: true, value: -1 };
  if (!/^\d+(\.\d+)?$/.test(t) || Number(t) <= 0)
    return { ok: false, error: `"${text}" is not a rate: give documents per second (e.g. 500), or -1 for no throttle` };
  // Elasticsearch reads it as a Java float; a larger number means "no throttle" anyway.
  if (Number(t) > FLOAT_MAX)
    return {
      ok: false,
      error: `"${text}" is more than Elasticsearch accepts as a rate: give documents per second (e.g. 500), or -1 for no throttle`,
    };
  return { ok: true, value: Number(t) };
}

/** The API a by-query or reindex task is rethrottled through, by its action. */
function rethrottleApi(action: string): { path: string; kind: string } {
  if (/reindex/.test(action)) return { path: '_reindex', kind: 'reindex' };
  if (/update\/byquery/.test(action)) return { path: '_update_by_query', kind: 'update-by-query' };
  return { path: '_delete_by_query', kind: 'delete' };
}

/**
 * POST _delete_by_query/<task>/_rethrottle (or _update_by_query, _reindex, by the task's action):
 * takes effect at the next batch; nothing is changed by it.
 */
export function rethrottlePlan(task: string, requestsPerSecond: number, action = 'indices:data/write/delete/byquery'): MutationPlan {
  const rate = requestsPerSecond < 0 ? 'no throttle' : `${requestsPerSecond} documents per second`;
  const api = rethrottleApi(action);
  return {
    method: 'POST',
    path: `/${api.path}/${encodeURIComponent(task)}/_rethrottle`,
    querystring: { requests_per_second: String(requestsPerSecond) },
    risk: 'reversible',
    target: task,
    summary: `rethrottle ${api.kind} task ${task} to ${rate}`,
  };
}

/**
 * POST _tasks/<id>/_cancel: stops the task at its next check. It stops, it restores nothing: what a
 * delete deleted stays deleted (said in the summary and the report). Any other task that writes
 * (by-query, reindex, update: `writes`) is left half done, so its id is typed to confirm, even
 * after --yes (the delete wizard's own task was confirmed by its typed count already).
 */
/** The number of a task id node:number (what a cancel's confirmation asks typed). */
export const taskNumber = (id: string): string => id.slice(id.lastIndexOf(':') + 1);

export function cancelTaskPlan(task: string, other?: { action: string; writes: boolean }): MutationPlan {
  const plan: MutationPlan = {
    method: 'POST',
    path: `/_tasks/${encodeURIComponent(task)}/_cancel`,
    querystring: {},
    risk: 'reversible',
    target: task,
    summary: `cancel task ${task} (stops deleting; what was deleted stays deleted)`,
  };
  if (!other) return plan;
  return {
    ...plan,
    risk: other.writes ? 'destructive' : 'reversible',
    // Typed to confirm: the task's number (after the node id), not all 27 characters (issue 47).
    confirmText: other.writes ? taskNumber(task) : undefined,
    summary: `cancel task ${task} (${other.action})${other.writes ? ': it stops half done; what it wrote stays written' : ''}`,
  };
}

// --- the machine ------------------------------------------------------------------------------

export interface DeleteReview {
  form: DeleteForm;
  choice: QueryChoice;
  indices: string[];
  preview: PreviewFacts;
  /** Offset of the sample page shown. */
  from: number;
}

export interface RunningTask {
  task: string;
  progress?: TaskProgress;
  /** The rethrottle prompt's text while it is open. */
  rate?: string;
  /** What the last rethrottle or cancel did (or why it failed). */
  control?: { ok: boolean; message: string };
  cancelRequested: boolean;
  /** How the delete was confirmed: a refresh it needs afterwards carries the same confirmation. */
  confirmation: Confirmation;
}

/** The form's fields in the order Tab visits them. */
export const DELETE_FIELDS = ['target', 'kind', 'value', 'conflicts', 'rate'] as const;
export type DeleteField = (typeof DELETE_FIELDS)[number];

type DeletePhase =
  | { phase: 'input'; form: DeleteForm; error?: string }
  | { phase: 'reading'; form: DeleteForm }
  | { phase: 'previewing'; form: DeleteForm; choice: QueryChoice }
  | { phase: 'nothing'; form: DeleteForm; choice: QueryChoice; indices: string[]; indexTotal: number }
  | ({
      phase: 'review';
      typed: string;
      error?: string;
      plan: MutationPlan;
      /** A sample page asked for and not yet shown. */ pending?: number;
    } & DeleteReview)
  | ({ phase: 'starting'; plan: MutationPlan; confirmation: Confirmation } & DeleteReview)
  | ({ phase: 'running'; plan: MutationPlan } & DeleteReview & RunningTask)
  | ({ phase: 'counting'; final: TaskProgress; /** The task died with its node. */ gone?: true } & DeleteReview & RunningTask)
  | ({
      phase: 'done';
      report: DeleteReport;
      final: TaskProgress;
      /** The task died with its node: the report is counted from the query, not read from the task. */ gone?: true;
      offerMerge: boolean;
      /** Why the count may lag (its refresh failed). */ countLag?: string;
    } & DeleteReview &
      RunningTask)
  | {
      phase: 'failed';
      message: string;
      review?: DeleteReview;
      last?: TaskProgress;
      /** The delete was sent and this is what the cluster did (absent: nothing was sent). */
      applied?: Applied;
      /** The guard refused it (its RefusalKind): nothing was sent. */
      refused?: string;
      /** The task whose status could no longer be read. */
      lostTask?: string;
    }
  | { phase: 'cancelled' };

export type DeleteState = DeletePhase & Focus<DeleteField>;

export type DeleteEvent =
  | CommonEvent
  | FocusEvent
  /** A key typed: into the focused field, the count on the review, or the rethrottle prompt. */
  | { type: 'line'; edit: LineEdit; field?: DeleteField }
  /** Space or an arrow on the focused choice (which documents, conflicts policy). */
  | { type: 'change'; field?: DeleteField }
  | { type: 'edit'; field: 'target' | 'value' | 'rate'; value: string }
  | { type: 'nextKind' }
  | { type: 'toggleConflicts' }
  | { type: 'submit'; now: number }
  | { type: 'fileRead'; text: string }
  | { type: 'rejected'; message: string }
  | { type: 'previewed'; indices: string[]; preview: PreviewFacts }
  | { type: 'page'; delta: number }
  | { type: 'samples'; from: number; samples: SampleDoc[] }
  | { type: 'typeCount'; text: string }
  | { type: 'back' }
  /** The typed count confirms; `by` says how it was given (a flag ahead on the CLI). */
  | { type: 'confirm'; by?: 'typed' | 'yes-flag' }
  | { type: 'started'; task: string }
  | { type: 'notStarted'; message: string; applied?: Applied; refused?: string }
  | { type: 'progress'; progress: TaskProgress }
  | { type: 'editRate'; text: string | undefined }
  | { type: 'rethrottle' }
  | { type: 'cancelTask' }
  | { type: 'controlled'; result: PlanResult }
  | { type: 'finished'; progress: TaskProgress }
  | { type: 'lost'; message: string; last?: TaskProgress }
  /** The node answers again but knows the task no more and stored no result (it restarted while the task ran). */
  | { type: 'gone'; last?: TaskProgress }
  | { type: 'counted'; stillMatching: number; countLag?: string };

export type DeleteEffect =
  | { type: 'readFile'; path: string }
  | { type: 'preview'; target: string; query: Query; pageSize: number }
  | { type: 'samples'; target: string; query: Query; from: number; pageSize: number }
  | { type: 'start'; plan: MutationPlan; confirmation: Confirmation }
  | { type: 'follow'; task: string }
  | { type: 'control'; plan: MutationPlan; confirmation: Confirmation }
  /** Refresh (guarded, carrying the delete's confirmation) and count the query again. */
  | {
      type: 'count';
      target: string;
      query: Query;
      refresh: boolean;
      confirmation: Confirmation;
      /** After the node restarted: its shards may still be recovering, so wait until the target reads. */
      afterRestart?: true;
    };

/** Phases where a request or a task is under way: Esc does not end the wizard there. */
const BUSY = new Set(['reading', 'previewing', 'starting', 'running', 'counting']);

function reviewOf(s: DeleteReview): DeleteReview {
  return { form: s.form, choice: s.choice, indices: s.indices, preview: s.preview, from: s.from };
}

function runningOf(s: RunningTask): RunningTask {
  return {
    task: s.task,
    progress: s.progress,
    rate: s.rate,
    control: s.control,
    cancelRequested: s.cancelRequested,
    confirmation: s.confirmation,
  };
}

/** The one-line explanation of the conflicts policy the delete is sent with. */
export function conflictsLine(policy: ConflictsPolicy): string {
  return CONFLICTS_LINE[policy];
}

/** The offset of the sample page `delta` pages away, kept within the matching documents. */
export function pageFrom(from: number, delta: number, matching: number, pageSize = SAMPLE_PAGE): number {
  const last = Math.max(0, Math.floor((Math.max(1, matching) - 1) / pageSize) * pageSize);
  return Math.max(0, Math.min(last, from + delta * pageSize));
}

/**
 * A typed key or a changed choice as the event the phase already takes (null: nothing to do).
 * Backspace on an empty count goes back to the form; the count takes digits only.
 */
function keyEvent(s: DeletePhase, e: Extract<DeleteEvent, { type: 'line' | 'change' }>): DeleteEvent | null {
  if (e.type === 'change') {
    if (s.phase !== 'input') return null;
    return e.field === 'kind' ? { type: 'nextKind' } : e.field === 'conflicts' ? { type: 'toggleConflicts' } : null;
  }
  if (s.phase === 'input')
    return e.field === 'target' || e.field === 'value' || e.field === 'rate'
      ? { type: 'edit', field: e.field, value: editLine(s.form[e.field], e.edit) }
      : null;
  if (s.phase === 'review') {
    if (e.edit.type === 'erase' && !s.typed) return { type: 'back' };
    const typed = editLine(s.typed, e.edit, DIGITS);
    return typed === s.typed && e.edit.type === 'insert' ? null : { type: 'typeCount', text: typed };
  }
  if (s.phase === 'running' && s.rate !== undefined) return { type: 'editRate', text: editLine(s.rate, e.edit) };
  return null;
}

export interface DeleteOptions {
  /** Samples per page (the CLI prints more than the wizard's screen holds). */
  pageSize?: number;
  /** What the target may name (--include-system). */
  target?: TargetOptions;
}

/** The form opens on the value when the target came from the selected row. */
export function deleteMachine(
  initial: Partial<DeleteForm> = {},
  opts: DeleteOptions = {},
): Machine<DeleteState, DeleteEvent, DeleteEffect> {
  return withFocus(deletePhases(initial, opts), DELETE_FIELDS, initial.target ? 'value' : 'target');
}

function deletePhases(
  initial: Partial<DeleteForm>,
  { pageSize = SAMPLE_PAGE, target = {} }: DeleteOptions,
): Machine<DeletePhase, DeleteEvent, DeleteEffect> {
  const form: DeleteForm = { target: '', kind: 'olderThan', value: '', conflicts: 'abort', rate: '', ...initial };
  /** The starting throttle of a form that passed submit's check. */
  const rateOf = (f: DeleteForm): number => {
    const r = f.rate.trim() ? parseRequestsPerSecond(f.rate) : null;
    return r?.ok ? r.value : -1;
  };
  const toPreview = (f: DeleteForm, choice: QueryChoice): Step<DeletePhase, DeleteEffect> =>
    go({ phase: 'previewing', form: f, choice }, { type: 'preview', target: f.target.trim(), query: choice.query, pageSize });
  return {
    init: () => stay({ phase: 'input', form }),
    step(s, event): Step<DeletePhase, DeleteEffect> {
      const e = event.type === 'line' || event.type === 'change' ? keyEvent(s, event) : event;
      if (!e) return stay(s);
      if (e.type === 'error')
        return stay({
          phase: 'failed',
          message: e.message,
          ...('choice' in s && 'indices' in s && 'preview' in s ? { review: reviewOf(s) } : {}),
        });
      if (e.type === 'cancel') return stay(BUSY.has(s.phase) ? s : { phase: 'cancelled' });
      switch (s.phase) {
        case 'input': {
          if (e.type === 'edit') return stay({ phase: 'input', form: { ...s.form, [e.field]: e.value } });
          if (e.type === 'nextKind') {
            const kind = QUERY_KINDS[(QUERY_KINDS.indexOf(s.form.kind) + 1) % QUERY_KINDS.length];
            return stay({ phase: 'input', form: { ...s.form, kind, value: '' } });
          }
          if (e.type === 'toggleConflicts')
            return stay({ phase: 'input', form: { ...s.form, conflicts: s.form.conflicts === 'abort' ? 'proceed' : 'abort' } });
          if (e.type === 'submit') {
            // The guard's own syntax check first: `*`, `_all`, dot names never get as far as a request.
            const bad = checkIndexExpression(s.form.target.trim(), target);
            if (bad) return stay({ ...s, error: bad });
            const rate = s.form.rate.trim() ? parseRequestsPerSecond(s.form.rate) : null;
            if (rate && !rate.ok) return stay({ ...s, error: `throttle ${rate.error}; leave it empty for no throttle` });
            const c = choiceOf(s.form, e.now);
            if (c.ok === false) return stay({ ...s, error: c.error });
            if (c.ok === 'file') return go({ phase: 'reading', form: s.form }, { type: 'readFile', path: c.path });
            return toPreview(s.form, c.value);
          }
          return stay(s);
        }
        case 'reading':
          if (e.type === 'rejected') return stay({ phase: 'input', form: s.form, error: e.message });
          if (e.type === 'fileRead') {
            const c = choiceOfFile(s.form.value.trim(), e.text);
            if (!c.ok) return stay({ phase: 'input', form: s.form, error: c.error });
            return toPreview(s.form, c.value);
          }
          return stay(s);
        case 'previewing':
          if (e.type === 'rejected') return stay({ phase: 'input', form: s.form, error: e.message });
          if (e.type === 'previewed') {
            if (e.preview.matching === 0)
              return stay({ phase: 'nothing', form: s.form, choice: s.choice, indices: e.indices, indexTotal: e.preview.indexTotal });
            const review: DeleteReview = { form: s.form, choice: s.choice, indices: e.indices, preview: e.preview, from: 0 };
            return stay({
              phase: 'review',
              ...review,
              typed: '',
              plan: wizardDeletePlan(s.form.target.trim(), e.indices, s.choice.query, e.preview.matching, s.form.conflicts, rateOf(s.form)),
            });
          }
          return stay(s);
        case 'review': {
          if (e.type === 'page') {
            // From the page asked for last (or shown), so quick presses step on.
            const from = pageFrom(s.pending ?? s.from, e.delta, s.preview.matching, pageSize);
            if (from === (s.pending ?? s.from)) return stay(s);
            return go({ ...s, pending: from }, { type: 'samples', target: s.form.target.trim(), query: s.choice.query, from, pageSize });
          }
          // The page and its offset change together, when its samples arrive; an older answer is dropped.
          if (e.type === 'samples')
            return stay(
              e.from === s.pending ? { ...s, from: e.from, pending: undefined, preview: { ...s.preview, samples: e.samples } } : s,
            );
          if (e.type === 'typeCount') return stay({ ...s, typed: e.text.replace(/\D/g, ''), error: undefined });
          if (e.type === 'toggleConflicts') {
            const conflicts: ConflictsPolicy = s.form.conflicts === 'abort' ? 'proceed' : 'abort';
            const f = { ...s.form, conflicts };
            return stay({
              ...s,
              form: f,
              plan: wizardDeletePlan(f.target.trim(), s.indices, s.choice.query, s.preview.matching, conflicts, rateOf(f)),
            });
          }
          if (e.type === 'back') return stay({ phase: 'input', form: s.form });
          if (e.type === 'confirm') {
            const expected = String(s.preview.matching);
            if (s.typed !== expected)
              return stay({
                ...s,
                typed: '',
                error: `typed "${s.typed}", but the preview counted ${expected} documents: nothing was sent; type the count exactly`,
              });
            const confirmation: Confirmation = { by: e.by ?? 'typed', text: s.typed };
            return go({ phase: 'starting', ...reviewOf(s), plan: s.plan, confirmation }, { type: 'start', plan: s.plan, confirmation });
          }
          return stay(s);
        }
        case 'starting':
          if (e.type === 'notStarted')
            return stay({
              phase: 'failed',
              message: e.message,
              review: reviewOf(s),
              ...(e.applied ? { applied: e.applied } : {}),
              ...(e.refused ? { refused: e.refused } : {}),
            });
          if (e.type === 'started')
            return go(
              { phase: 'running', ...reviewOf(s), plan: s.plan, task: e.task, cancelRequested: false, confirmation: s.confirmation },
              { type: 'follow', task: e.task },
            );
          return stay(s);
        case 'running': {
          if (e.type === 'progress') return stay({ ...s, progress: e.progress });
          if (e.type === 'editRate') return stay({ ...s, rate: e.text === undefined ? undefined : e.text.replace(/[^\d.\-a-z]/gi, '') });
          if (e.type === 'rethrottle') {
            if (s.rate === undefined) return stay(s);
            const r = parseRequestsPerSecond(s.rate);
            if (!r.ok) return stay({ ...s, control: { ok: false, message: r.error } });
            return go(
              { ...s, rate: undefined, control: undefined },
              { type: 'control', plan: rethrottlePlan(s.task, r.value), confirmation: { by: 'key' } },
            );
          }
          if (e.type === 'cancelTask') {
            if (s.cancelRequested) return stay(s);
            return go(
              { ...s, rate: undefined, cancelRequested: true },
              { type: 'control', plan: cancelTaskPlan(s.task), confirmation: { by: 'key' } },
            );
          }
          if (e.type === 'controlled')
            return stay({
              ...s,
              control: { ok: e.result.ok, message: e.result.ok ? `${e.result.summary}: ${e.result.message}` : e.result.message },
            });
          if (e.type === 'finished')
            return go(
              { phase: 'counting', ...reviewOf(s), ...runningOf(s), progress: e.progress, final: e.progress },
              {
                type: 'count',
                target: s.form.target.trim(),
                query: s.choice.query,
                refresh: deleteSkippedItsRefresh(e.progress),
                // How the operator confirmed the delete (confirm accepts only the previewed count).
                confirmation: s.confirmation,
              },
            );
          if (e.type === 'gone') {
            // Its end is learned from the query: what still matches after a refresh (its own refresh=true never ran).
            const final = e.last ?? s.progress ?? parseTask(s.task, {});
            return go(
              { phase: 'counting', ...reviewOf(s), ...runningOf(s), progress: final, final, gone: true },
              {
                type: 'count',
                target: s.form.target.trim(),
                query: s.choice.query,
                refresh: true,
                confirmation: s.confirmation,
                afterRestart: true,
              },
            );
          }
          if (e.type === 'lost')
            return stay({
              phase: 'failed',
              message: `lost task ${s.task}: its status could not be read (${e.message}); it was not retried. When the node answers again: shardeck tasks ${s.task}`,
              review: reviewOf(s),
              last: e.last ?? s.progress,
              lostTask: s.task,
            });
          return stay(s);
        }
        case 'counting':
          if (e.type === 'counted') {
            const report = s.gone
              ? goneDeleteReport(s.form.target.trim(), s.preview.matching, e.stillMatching)
              : deleteReport(s.preview.matching, s.final, e.stillMatching);
            return stay({ ...s, phase: 'done', report, offerMerge: report.deleted > 0, ...(e.countLag ? { countLag: e.countLag } : {}) });
          }
          return stay(s);
        default:
          return stay(s);
      }
    },
  };
}
