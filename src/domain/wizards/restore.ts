// Restore from a snapshot: the indices (a pattern resolved against what the snapshot holds, to the
// exact list the preview shows), restored BESIDE the originals under a new name (default: no data
// is touched) or IN PLACE (the originals are closed, a red one deleted, and restored over: what was
// written since the snapshot is lost, so the operator types the index names, even with --yes).
// Never the cluster's global state. The session (services/wizards/restore.ts) follows the restore shard by shard until
// the restored indices are green, then counts their documents.
import { confirmationNeeded, confirmationSatisfies, type Confirmation } from '../mutation/confirmation';
import type { IndexAlias } from '../maintenance/aliases';
import type { MutationPlan } from '../mutation/plan';
import { editLine, type LineEdit } from '../console/line-edit';
import { checkIndexExpression } from '../mutation/targets';
import type { ShardRecovery, SnapshotInfo } from '../snapshots';
import { copyLines, copyMissing, copyRefusal, WITHOUT_COPY, type IndexCopyPlan } from '../corruption/copy';
import type { DocCount, RouteLoss } from '../corruption/loss';
import { commonStep, go, stay, type CommonEvent, type Ended, type Machine, type PlanResult, type Step } from './machine';

export type RestoreMode = 'beside' | 'replace';

export interface RestoreForm {
  repository: string;
  snapshot: string;
  /** An index, a list or a pattern, matched against the indices the snapshot holds. */
  indices: string;
  mode: RestoreMode;
  /** beside: appended to each name (logs-a -> logs-a-restored). */
  suffix: string;
  /**
   * beside: put the snapshot's aliases on the copies too (default false: an alias the original
   * still holds would point at both, seen on 8.19). In place they always come back with the index.
   */
  includeAliases?: boolean;
  /** System (dot) indices may be named (--include-system, the form's "system indices"); a pattern matches them only then. */
  includeSystem?: boolean;
}

export const DEFAULT_SUFFIX = '-restored';

/** How either surface asks for system indices: one sentence for the command and the form. */
const INCLUDE_SYSTEM_HOW = 'add --include-system (in the console: "system indices" included)';

/** The form field a refusal concerns: the console shows it there, with what was typed. */
export type RestoreField = 'indices' | 'suffix' | 'system';

/** The indices of the snapshot an expression names (`*` inside a part matches any run of characters). */
export function matchSnapshotIndices(
  expr: string,
  held: readonly string[],
  includeSystem = false,
): { ok: true; indices: string[] } | { ok: false; error: string } {
  const syntax = checkIndexExpression(expr, { includeSystem, includeSystemHow: INCLUDE_SYSTEM_HOW });
  if (syntax) return { ok: false, error: syntax };
  const parts = expr.split(',').map((p) => p.trim());
  const out = new Set<string>();
  for (const part of parts) {
    const re = new RegExp(`^${part.split('*').map(escapeRe).join('.*')}$`);
    const hits = held.filter((n) => re.test(n) && (includeSystem || !n.startsWith('.')));
    if (!hits.length)
      return { ok: false, error: `the snapshot holds no index matching "${part}" (it holds: ${held.join(', ') || 'none'})` };
    hits.forEach((h) => out.add(h));
  }
  return { ok: true, indices: [...out].sort() };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The suffix as literal text of a Java replacement string (Elasticsearch renames with
 * String.replaceAll): `$0`, `$1` or `${name}` would be group references and a backslash an escape,
 * so the index made would not be the one previewed. `$` is valid in an index name, so it is escaped.
 */
export function literalReplacement(text: string): string {
  return text.replace(/[\\$]/g, '\\$&');
}

/** Where each index is restored: under its own name (replace) or with the suffix (beside). */
export function targetName(index: string, form: Pick<RestoreForm, 'mode' | 'suffix'>): string {
  return form.mode === 'replace' ? index : `${index}${form.suffix}`;
}

export interface RestoreIndexFact {
  index: string;
  target: string;
  /** The target as the cluster has it now: absent, or open/closed, with its health (_cat/indices). */
  existing?: { status: string; health?: string };
  /** Documents in the original now (when it is open): what the restored copy is compared with. */
  originalDocs?: number;
  /** Why the open original could not be counted (red: its primary is not available). */
  unreadable?: string;
  /** The original's aliases now (when it exists; a write alias marked). */
  aliases?: IndexAlias[];
  /** In place, a red original (deleted before the restore): the copy of its shard folders taken first (issue 48). */
  copy?: IndexCopyPlan;
  /**
   * In place, a red original: what this restore loses (about the documents written since the
   * snapshot) and what the offline repair would (CheckIndex on a copy, when one was counted), with
   * the count before red the restored index is measured against afterwards.
   */
  loss?: { restore: RouteLoss; exorcise: RouteLoss; before: DocCount | null };
}

export interface RestoreFacts {
  snapshot: SnapshotInfo;
  indices: RestoreIndexFact[];
}

const seg = encodeURIComponent;
const list = (names: readonly string[]) => names.map(seg).join(',');

/** Reads the targets back through _cat/indices: each one present with the status asked for. */
function statusCheck(names: readonly string[], status: 'open' | 'close', what: string): MutationPlan['verify'] {
  return {
    path: `/_cat/indices/${list(names)}`,
    querystring: { format: 'json', h: 'index,status', expand_wildcards: 'all' },
    check(body) {
      const rows = Array.isArray(body) ? (body as { index?: string; status?: string }[]) : [];
      const bad = names.filter((n) => rows.find((r) => r.index === n)?.status !== status);
      return bad.length ? { ok: false, message: `not ${what}: ${bad.join(', ')}` } : { ok: true, message: `${what}: ${names.join(', ')}` };
    },
  };
}

/** Reads the cluster's indices back through _cat/indices: none of these names left. */
function goneCheck(names: readonly string[]): MutationPlan['verify'] {
  return {
    path: '/_cat/indices',
    querystring: { format: 'json', h: 'index', expand_wildcards: 'all' },
    check(body) {
      const present = new Set((Array.isArray(body) ? (body as { index?: string }[]) : []).map((r) => r.index));
      const left = names.filter((t) => present.has(t));
      return left.length
        ? { ok: false, message: `still there: ${left.join(', ')}` }
        : { ok: true, message: `deleted: ${names.join(', ')}` };
    },
  };
}

/**
 * What the operator types to confirm an in-place restore: the names of the indices it overwrites,
 * then `:without-copy` when a red one is deleted without a copy of every shard folder (on another
 * host, or no node of this host): the typed words accept that.
 */
export function replaceConfirmText(indices: readonly string[], facts?: Pick<RestoreFacts, 'indices'>): string {
  const uncopied = facts?.indices.some((i) => i.copy && copyMissing(i.copy));
  return `${indices.join(',')}${uncopied ? WITHOUT_COPY : ''}`;
}

/** What the preview says of the copies taken before a red original is deleted, a line each. */
export function restoreCopyLines(facts: RestoreFacts): string[] {
  return facts.indices.flatMap((i) => (i.copy ? copyLines(i.copy) : []));
}

/** Whether confirming this restore first takes a copy of shard folders on this host. */
export function takesCopy(facts: RestoreFacts): boolean {
  return facts.indices.some((i) => i.copy && i.copy.here.length > 0);
}

/**
 * The requests of a restore: beside, one restore under the new names (without the snapshot's
 * aliases unless asked: they would point at the copies too); in place, closing the open originals,
 * then the restore over them (with the snapshot's aliases). A RED original (open or closed) is
 * deleted instead: seen on 8.19 with a corrupt primary, closing it makes the node try the corrupt
 * copy once more and keep its shard lock for good ("lock already held for [closing shard]"), so the
 * restore over it never starts and stays red; deleted, the restore makes a new index and is green
 * in seconds. In place already loses that copy (the restore overwrites its folder). All name
 * exactly the indices, never a pattern; include_aliases is always sent, so the preview shows it.
 */
export function restorePlans(form: RestoreForm, facts: RestoreFacts): MutationPlan[] {
  const indices = facts.indices.map((i) => i.index);
  const typed = replaceConfirmText(indices, facts);
  const targets = facts.indices.map((i) => i.target);
  const body: Record<string, unknown> = { indices: indices.join(','), include_global_state: false };
  if (form.mode === 'beside')
    Object.assign(body, {
      rename_pattern: '(.+)',
      rename_replacement: `$1${literalReplacement(form.suffix)}`,
      include_aliases: form.includeAliases === true,
    });
  else body.include_aliases = true;
  const restore: MutationPlan = {
    method: 'POST',
    path: `/_snapshot/${seg(form.repository)}/${seg(form.snapshot)}/_restore`,
    querystring: { wait_for_completion: 'false' },
    body,
    risk: form.mode === 'replace' ? 'destructive' : 'reversible',
    target: targets.join(','),
    ...(form.mode === 'replace' ? { confirmText: typed } : {}),
    summary:
      form.mode === 'replace'
        ? `restore ${indices.join(', ')} from ${form.repository}/${form.snapshot} IN PLACE: what was written to them since the snapshot is lost`
        : `restore ${indices.join(', ')} from ${form.repository}/${form.snapshot} beside the originals as ${targets.join(', ')} (no data touched)`,
    verify: statusCheck(targets, 'open', 'restoring or restored'),
  };
  if (form.mode === 'beside') return [restore];
  const red = facts.indices.filter((i) => i.existing?.health === 'red').map((i) => i.index);
  const open = facts.indices.filter((i) => i.existing?.status === 'open' && i.existing.health !== 'red').map((i) => i.index);
  const plans: MutationPlan[] = [];
  if (red.length)
    plans.push({
      method: 'DELETE',
      path: `/${list(red)}`,
      querystring: {},
      risk: 'destructive',
      target: red.join(','),
      confirmText: typed,
      summary: `delete ${red.join(', ')} (red: closed, ${red.length === 1 ? 'it keeps its' : 'they keep their'} shard locked and the restore never starts)${copySaid(facts, red)}`,
      verify: goneCheck(red),
    });
  if (open.length) plans.push(closePlan(open, typed));
  return [...plans, restore];
}

/** How the delete's summary (in the audit) says where the red indices' folders were copied. */
function copySaid(facts: RestoreFacts, red: readonly string[]): string {
  const copies = facts.indices.filter((i) => red.includes(i.index) && i.copy);
  if (!copies.length) return '';
  const kept = copies.flatMap((i) => i.copy!.here.map((f) => f.reuse ?? f.archive));
  const missing = copies.filter((i) => copyMissing(i.copy!)).map((i) => i.index);
  return `; its shard folders copied first${kept.length ? ` to ${kept.join(', ')}` : ''}${missing.length ? `; NOT every folder of ${missing.join(', ')} copied (accepted by the typed confirmation)` : ''}`;
}

function closePlan(open: string[], typed: string): MutationPlan {
  return {
    method: 'POST',
    path: `/${list(open)}/_close`,
    querystring: {},
    risk: 'destructive',
    target: open.join(','),
    confirmText: typed,
    summary: `close ${open.join(', ')} so the snapshot can be restored over ${open.length === 1 ? 'it' : 'them'}`,
    verify: statusCheck(open, 'close', 'closed'),
  };
}

/**
 * Cancels a running restore the only way Elasticsearch has: deleting the indices being restored
 * (exactly the targets, typed). Beside, the originals are untouched; in place, the originals were
 * closed and overwritten, so after this the index is gone until restored again. The snapshot stays.
 */
export function cancelRestorePlan(form: Pick<RestoreForm, 'mode' | 'repository' | 'snapshot'>, targets: readonly string[]): MutationPlan {
  return {
    method: 'DELETE',
    path: `/${list(targets)}`,
    querystring: {},
    risk: 'destructive',
    target: targets.join(','),
    confirmText: targets.join(','),
    summary:
      `cancel the restore from ${form.repository}/${form.snapshot}: delete ${targets.join(', ')} while ${targets.length === 1 ? 'it is' : 'they are'} restored` +
      (form.mode === 'replace'
        ? ' (in place: the original was overwritten, so the index is GONE until restored again; the snapshot stays)'
        : ' (the originals are untouched; the snapshot stays)'),
    verify: goneCheck(targets),
  };
}

export interface RestoreNote {
  text: string;
  tone?: 'yellow' | 'red';
}

const aliasList = (facts: RestoreFacts) =>
  facts.indices
    .filter((i) => i.aliases?.length)
    .map((i) => `${i.index}: ${i.aliases!.map((a) => `${a.name}${a.write ? ' (write)' : ''}`).join(', ')}`)
    .join('; ');

/**
 * What the operator must know before a restore about what is not in the request's index list: the
 * aliases and the index settings. Elasticsearch has no read of a snapshot's aliases or settings
 * short of restoring it (index_details gives shards and size only), so the notes say what the
 * restore does with them and show the originals' aliases now. Seen on an 8.19 node: beside with
 * the aliases, an alias the original still holds points at both (a write alias: the restore is
 * refused, "has more than one write index"); in place with them, the snapshot's aliases replace
 * the current ones. `includeHow`: how this surface asks for them (a flag, a form field).
 */
export function restoreNotes(form: RestoreForm, facts: RestoreFacts, includeHow: string): RestoreNote[] {
  const now = aliasList(facts);
  const held = now ? ` (now ${now})` : '';
  const aliases: RestoreNote =
    form.mode === 'replace'
      ? { text: `aliases: the snapshot's replace the current ones${held}: added since are dropped, removed since return`, tone: 'yellow' }
      : form.includeAliases
        ? {
            text: `aliases: put on the copies too: one an original still holds${held} points at both, and searches see both; a write alias is refused`,
            tone: 'red',
          }
        : { text: `aliases: left out${held}: on the copies they would point at both and searches see both; ${includeHow} adds them` };
  const settings: RestoreNote = {
    text:
      "settings: the snapshot's, all of them (no index_settings, no ignore_index_settings); no cluster state" +
      (form.mode === 'replace' ? '; changed since (replicas, refresh) go back' : ''),
  };
  return [aliases, settings];
}

/**
 * `restore cancel INDEX...`: the delete of exactly these indices, when each one is being restored
 * now (a running SNAPSHOT recovery of it; a finished restore or another index is refused, so the
 * command never deletes an index that is not restoring), all from one snapshot. In place when the
 * index has its snapshot name (the original was overwritten, or there was none).
 */
export function restoreCancelOf(
  names: readonly string[],
  running: readonly ShardRecovery[],
): { ok: true; plan: MutationPlan; from: { repository: string; snapshot: string } } | { ok: false; error: string } {
  const restoring = running.filter((r) => r.type === 'SNAPSHOT' && r.stage !== 'DONE' && r.source);
  const missing = names.filter((n) => !restoring.some((r) => r.index === n));
  if (missing.length)
    return {
      ok: false,
      error: `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not being restored (no running restore of ${missing.length === 1 ? 'it' : 'them'}); restoring now: ${[...new Set(restoring.map((r) => r.index))].sort().join(', ') || 'none'}`,
    };
  const mine = restoring.filter((r) => names.includes(r.index));
  const froms = [...new Set(mine.map((r) => `${r.source!.repository}/${r.source!.snapshot}`))];
  if (froms.length > 1)
    return { ok: false, error: `these are restored from ${froms.join(' and ')}: cancel one snapshot's indices at a time` };
  const { repository, snapshot } = mine[0].source!;
  const inPlace = mine.some((r) => r.source!.index === r.index);
  return {
    ok: true,
    plan: cancelRestorePlan({ mode: inPlace ? 'replace' : 'beside', repository, snapshot }, names),
    from: { repository, snapshot },
  };
}

/** The indices a snapshot holds that the console's form offers at first: every one a restore accepts without a choice. */
export function defaultRestoreIndices(held: readonly string[]): string {
  return held.filter((i) => !i.startsWith('.')).join(',');
}

/** Why the restore cannot be planned (nothing is sent), or undefined. */
export function refusalOf(form: RestoreForm, facts: RestoreFacts): { message: string; field?: RestoreField } | undefined {
  if (form.mode === 'beside') {
    if (!form.suffix || form.suffix !== form.suffix.toLowerCase() || /[\s,"*\\<|>/?#:]/.test(form.suffix))
      return {
        message: `the suffix must be lower case, without spaces or any of , " * \\ < | > / ? # : (e.g. ${DEFAULT_SUFFIX})`,
        field: 'suffix',
      };
    const taken = facts.indices.filter((i) => i.existing);
    if (taken.length)
      return {
        message: `${taken.map((i) => i.target).join(', ')} already ${taken.length === 1 ? 'exists' : 'exist'}: pick another rename suffix, or delete ${taken.length === 1 ? 'it' : 'them'} first`,
        field: 'suffix',
      };
  }
  if (!['SUCCESS', 'PARTIAL'].includes(facts.snapshot.state))
    return { message: `snapshot ${form.repository}/${form.snapshot} is ${facts.snapshot.state}: only a finished snapshot can be restored` };
  const failed = facts.indices.filter((i) => facts.snapshot.failures.some((f) => f.index === i.index)).map((i) => i.index);
  if (failed.length)
    return { message: `the snapshot holds no whole copy of ${failed.join(', ')} (its shards failed in it)`, field: 'indices' };
  for (const i of facts.indices) {
    const why = i.copy ? copyRefusal(i.copy) : null;
    if (why) return { message: why };
  }
  return undefined;
}

export interface RestoreProgress {
  recoveries: ShardRecovery[];
  health: string;
}

export interface RestoreReport {
  /**
   * Per index: documents before (the original, when it was open) and after (the restored target;
   * null when it was not green in time and could not be counted: a red index answers 503).
   */
  counts: { index: string; target: string; before?: number; after: number | null }[];
  health: string;
  /** The restored indices were green before the deadline. */
  green: boolean;
  /** In place over a red original: the loss expected against the loss counted once green (also in the audit). */
  losses?: { index: string; expected: number | null; lost: number | null; text: string }[];
}

export type RestoreState =
  | { phase: 'loading'; form: RestoreForm }
  | { phase: 'refused'; form: RestoreForm; kind: 'input' | 'missing'; message: string; field?: RestoreField; facts?: RestoreFacts }
  | { phase: 'review'; form: RestoreForm; facts: RestoreFacts; plans: MutationPlan[] }
  /** The copy of the red originals' shard folders is being taken (nothing is sent before it is verified). */
  | { phase: 'copying'; form: RestoreForm; facts: RestoreFacts; plans: MutationPlan[]; confirmation: Confirmation; log: string[] }
  | { phase: 'applying'; form: RestoreForm; facts: RestoreFacts; plans: MutationPlan[]; copied?: string[] }
  | {
      phase: 'watching';
      form: RestoreForm;
      facts: RestoreFacts;
      plans: MutationPlan[];
      results: PlanResult[];
      /** What the copy before the delete took (archives), said until the end. */
      copied?: string[];
      progress?: RestoreProgress;
      /** The operator asked to cancel it: the delete's plan and the names typed so far. */
      cancel?: { plan: MutationPlan; typed: string; error?: string };
    }
  /** The cancel (delete of the restoring indices) is out. */
  | { phase: 'stopping'; form: RestoreForm; facts: RestoreFacts; plans: MutationPlan[]; results: PlanResult[]; cancelPlan: MutationPlan }
  /** The restore was cancelled: its indices deleted (results: every plan sent, the delete last). */
  | { phase: 'stopped'; form: RestoreForm; results: PlanResult[] }
  | {
      phase: 'done';
      form: RestoreForm;
      facts: RestoreFacts;
      plans: MutationPlan[];
      results: PlanResult[];
      report: RestoreReport;
      copied?: string[];
    }
  | (Ended & { results?: PlanResult[]; copied?: string[] });

export type RestoreEvent =
  | CommonEvent
  | { type: 'loaded'; facts: RestoreFacts }
  | { type: 'refused'; kind: 'input' | 'missing'; message: string; field?: RestoreField }
  | { type: 'confirm'; confirmation: Confirmation }
  | { type: 'applied'; results: PlanResult[] }
  /** The copy before the delete: taken and verified (the archives), or failed (nothing sent). */
  | { type: 'copied'; ok: boolean; lines: string[]; message?: string }
  | { type: 'copyLine'; line: string }
  | { type: 'progress'; progress: RestoreProgress }
  | { type: 'settled'; report: RestoreReport }
  /** While it runs: ask to cancel it (the typed prompt), a key typed into it, send it, or back. */
  | { type: 'cancelRestore' }
  | { type: 'line'; edit: LineEdit }
  | { type: 'confirmCancel' }
  | { type: 'back' };

export type RestoreEffect =
  | { type: 'load'; form: RestoreForm }
  | { type: 'mutate'; plans: MutationPlan[]; confirmation: Confirmation }
  /** Copy the red originals' shard folders on this host, checked, before anything is sent. */
  | { type: 'copy'; facts: RestoreFacts; confirmation: Confirmation }
  /** Follow the restore of these targets until green; `before`: the original's documents before the restore. */
  | {
      type: 'watch';
      indices: { index: string; target: string; before?: number }[];
      losses?: { index: string; loss: NonNullable<RestoreIndexFact['loss']> }[];
    }
  /** Cancel the running restore: the delete of its indices (the watch then ends without a report). */
  | { type: 'stop'; plan: MutationPlan; confirmation: Confirmation };

/** A plan of a restore in words: the delete, the close, the restore. */
const planWord = (p: MutationPlan) => (p.method === 'DELETE' ? 'the delete' : p.path.endsWith('/_close') ? 'the close' : 'the restore');

/** "the close and the restore were": the plans that went through, in words. */
function appliedWords(plans: readonly MutationPlan[], results: readonly PlanResult[]): string {
  const words = plans.filter((_, i) => results[i]?.ok).map(planWord);
  if (!words.length) return 'nothing was';
  return `${words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : words[0]} ${words.length > 1 ? 'were' : 'was'}`;
}

/** In place, what a delete or close that went through without its restore left behind, or undefined. */
function leftBehind(plans: readonly MutationPlan[], results: readonly PlanResult[]): string | undefined {
  const restored = results[plans.length - 1]?.ok;
  if (restored) return undefined;
  const said = plans.slice(0, -1).flatMap((p, i) => {
    if (!results[i]?.ok) return [];
    const one = !p.target.includes(',');
    if (p.method === 'DELETE') return [`${p.target} ${one ? 'is' : 'are'} DELETED now: run the restore again`];
    return [
      `${p.target} ${one ? 'is' : 'are'} CLOSED now: open ${one ? 'it' : 'them'} with POST /${p.target}/_open, or run the restore again`,
    ];
  });
  return said.length ? said.join('; ') : undefined;
}

export function restoreMachine(form: RestoreForm): Machine<RestoreState, RestoreEvent, RestoreEffect> {
  return {
    init: () => go({ phase: 'loading', form }, { type: 'load', form }),
    step(s, e): Step<RestoreState, RestoreEffect> {
      // Esc on the cancel prompt closes the prompt; while the delete is out, nothing (it cannot be called back).
      if (e.type === 'cancel' && s.phase === 'watching' && s.cancel) return stay({ ...s, cancel: undefined });
      if (e.type === 'cancel' && s.phase === 'stopping') return stay(s);
      // The watch may fail once its indices are deleted: the stop's own result says what happened.
      if (e.type === 'error' && (s.phase === 'stopping' || s.phase === 'stopped')) return stay(s);
      // The requests are out: a failure while watching (the watch, the count) keeps what was applied.
      if (e.type === 'error' && s.phase === 'watching')
        return stay({
          phase: 'failed',
          message: `${e.message} (after the requests went out: ${appliedWords(s.plans, s.results)} applied)`,
          results: s.results,
          ...(s.copied ? { copied: s.copied } : {}),
        });
      const common = commonStep<RestoreState, RestoreEffect>(s, e);
      if (common) return common;
      switch (s.phase) {
        case 'loading': {
          if (e.type === 'refused')
            return stay({ phase: 'refused', form, kind: e.kind, message: e.message, ...(e.field ? { field: e.field } : {}) });
          if (e.type !== 'loaded') return stay(s);
          const why = refusalOf(form, e.facts);
          if (why) return stay({ phase: 'refused', form, kind: 'input', ...why, facts: e.facts });
          return stay({ phase: 'review', form, facts: e.facts, plans: restorePlans(form, e.facts) });
        }
        case 'review':
          if (e.type !== 'confirm') return stay(s);
          // A red original is deleted only after a verified copy of its folders on this host; the
          // confirmation is judged first, so a mistyped one takes no copy either.
          if (takesCopy(s.facts) && !s.plans.every((p) => confirmationSatisfies(p, e.confirmation))) {
            const need = confirmationNeeded(s.plans[0]);
            return stay({
              phase: 'failed',
              message: `this cannot be undone: type "${need.kind === 'type' ? need.expected : ''}" to confirm (nothing was copied or sent)`,
              results: [],
            });
          }
          if (takesCopy(s.facts))
            return go(
              { ...s, phase: 'copying', confirmation: e.confirmation, log: [] },
              { type: 'copy', facts: s.facts, confirmation: e.confirmation },
            );
          return go({ ...s, phase: 'applying' }, { type: 'mutate', plans: s.plans, confirmation: e.confirmation });
        case 'copying': {
          if (e.type === 'copyLine') return stay({ ...s, log: [...s.log, e.line].slice(-4) });
          if (e.type !== 'copied') return stay(s);
          if (!e.ok)
            return stay({ phase: 'failed', message: `${e.message ?? 'the copy failed'}: nothing was deleted or sent`, results: [] });
          const { confirmation, log: _log, ...rest } = s;
          return go({ ...rest, phase: 'applying', copied: e.lines }, { type: 'mutate', plans: s.plans, confirmation });
        }
        case 'applying': {
          if (e.type !== 'applied') return stay(s);
          // Every plan must have gone through; a delete or close without its restore: said in the message.
          if (e.results.length < s.plans.length || e.results.some((r) => !r.ok)) {
            const bad = e.results.find((r) => !r.ok);
            const left = leftBehind(s.plans, e.results);
            const kept = s.copied?.length ? `; the copy of its folders is kept: ${s.copied.join('; ')}` : '';
            return stay({
              phase: 'failed',
              message: `${bad?.message ?? 'not sent'}${left ? ` (${left}${kept})` : kept ? ` (${kept.slice(2)})` : ''}`,
              results: e.results,
              ...(s.copied ? { copied: s.copied } : {}),
            });
          }
          const indices = s.facts.indices.map((i) => ({
            index: i.index,
            target: i.target,
            ...(i.originalDocs !== undefined ? { before: i.originalDocs } : {}),
          }));
          const losses = s.facts.indices.flatMap((i) => (i.loss ? [{ index: i.index, loss: i.loss }] : []));
          return go(
            { phase: 'watching', form, facts: s.facts, plans: s.plans, results: e.results, ...(s.copied ? { copied: s.copied } : {}) },
            { type: 'watch', indices, ...(losses.length ? { losses } : {}) },
          );
        }
        case 'watching':
          if (e.type === 'cancelRestore' && !s.cancel)
            return stay({
              ...s,
              cancel: {
                plan: cancelRestorePlan(
                  form,
                  s.facts.indices.map((i) => i.target),
                ),
                typed: '',
              },
            });
          if (s.cancel) {
            if (e.type === 'back') return stay({ ...s, cancel: undefined });
            if (e.type === 'line')
              return stay({ ...s, cancel: { ...s.cancel, typed: editLine(s.cancel.typed, e.edit), error: undefined } });
            if (e.type === 'confirmCancel') {
              const expected = s.cancel.plan.confirmText ?? '';
              if (s.cancel.typed !== expected)
                return stay({
                  ...s,
                  cancel: { ...s.cancel, typed: '', error: `typed "${s.cancel.typed}", not ${expected}: nothing was sent` },
                });
              const { cancel, progress: _progress, ...rest } = s;
              return go(
                { ...rest, phase: 'stopping', cancelPlan: cancel.plan },
                { type: 'stop', plan: cancel.plan, confirmation: { by: 'typed', text: cancel.typed } },
              );
            }
          }
          if (e.type === 'progress') return stay({ ...s, progress: e.progress });
          if (e.type === 'settled')
            return stay({
              phase: 'done',
              form,
              facts: s.facts,
              plans: s.plans,
              results: s.results,
              report: e.report,
              ...(s.copied ? { copied: s.copied } : {}),
            });
          return stay(s);
        case 'stopping': {
          if (e.type !== 'applied') return stay(s);
          const [r] = e.results;
          if (!r?.ok)
            return stay({
              phase: 'failed',
              message: `the restore was not cancelled: ${r?.message ?? 'not sent'}`,
              results: [...s.results, ...e.results],
            });
          return stay({ phase: 'stopped', form, results: [...s.results, ...e.results] });
        }
        default:
          return stay(s);
      }
    },
  };
}
